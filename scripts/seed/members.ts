/** Fictional member companies (names are invented; countries are real). */

/** `joined` 0 means the year of the seed (the members announced in the latest news). */
export type MemberSeed = { name: string; country: string; joined: number; domain: string };

const m = (name: string, country: string, joined: number, domain: string): MemberSeed => ({
  name,
  country,
  joined,
  domain,
});

export const MEMBERS: MemberSeed[] = [
  m("Nordhavn Marine Electronics AS", "Norway", 1962, "nordhavn-marine"),
  m("Atlantic Bridge Systems Ltd", "United Kingdom", 1987, "atlanticbridge"),
  m("Tirreno Navigazione Elettronica S.r.l.", "Italy", 1974, "tirreno-nav"),
  m("Sato Maritime Instruments K.K.", "Japan", 1969, "sato-maritime"),
  m("Zeeland Radio Services B.V.", "Netherlands", 1955, "zeelandradio"),
  m("Hanbit Marine Systems Co., Ltd", "Republic of Korea", 1998, "hanbit-marine"),
  m("Cantábrico Electrónica Naval S.L.", "Spain", 1981, "cantabrico-naval"),
  m("Kestrel Radio Systems Ltd", "United Kingdom", 1949, "kestrelradio"),
  m("Brightwater Navigation GmbH", "Germany", 1978, "brightwater-nav"),
  m("Østersø Maritime Communications A/S", "Denmark", 1958, "ostersoe-maritime"),
  m("Baltic Beacon Technologies Oy", "Finland", 2006, "balticbeacon"),
  m("Skerry Satellite Services Ltd", "Ireland", 2011, "skerry-satellite"),
  m("Hafenkante Schiffselektronik GmbH", "Germany", 1952, "hafenkante"),
  m("Meridian Gyro Instruments Inc.", "United States", 1972, "meridiangyro"),
  m("Gulf Coast Marine Radio LLC", "United States", 1984, "gulfcoastradio"),
  m("Porto Atlântico Eletrónica Marítima Lda.", "Portugal", 1993, "portoatlantico"),
  m("Aegean Marine Telecom S.A.", "Greece", 1977, "aegeantelecom"),
  m("Piraeus Navtronics S.A.", "Greece", 2003, "piraeus-navtronics"),
  m("Bosphorus Denizcilik Elektronik A.Ş.", "Türkiye", 2009, "bosphorus-elektronik"),
  m("Lion City Marine Systems Pte Ltd", "Singapore", 1996, "lioncitymarine"),
  m("Pearl River Navigation Technology Co., Ltd", "China", 2008, "pearlriver-nav"),
  m("Malacca Strait Electronics Sdn Bhd", "Malaysia", 2012, "malaccastrait"),
  m("Konkan Harbour Radio Pvt Ltd", "India", 1999, "konkanradio"),
  m("Southern Cross Marine Electronics Pty Ltd", "Australia", 1971, "southerncross-marine"),
  m("Tasman Navigation Systems Ltd", "New Zealand", 2001, "tasmannav"),
  m("Great Lakes Marine Instruments Inc.", "Canada", 1966, "greatlakes-instruments"),
  m("Fundy Bay Ocean Technologies Inc.", "Canada", 2014, "fundybay"),
  m("Rio Grande Eletrônica Naval Ltda.", "Brazil", 2004, "riogrande-naval"),
  m("Valparaíso Radio Marítima S.A.", "Chile", 1988, "valparaiso-radio"),
  m("Cape Agulhas Marine Electronics (Pty) Ltd", "South Africa", 1991, "capeagulhas"),
  m("Suez Gateway Marine Systems S.A.E.", "Egypt", 2010, "suezgateway"),
  m("Gdańsk Elektronika Morska Sp. z o.o.", "Poland", 1995, "gdansk-morska"),
  m("Adriatic Navtech d.o.o.", "Croatia", 2007, "adriatic-navtech"),
  m("Daugava Bay Radio SIA", "Latvia", 0, "daugavabay"),
  m("Göteborg Bridge Technology AB", "Sweden", 1976, "goteborg-bridge"),
  m("Bergen Sonar & Sensors AS", "Norway", 1990, "bergensonar"),
  m("Brest Océan Électronique SAS", "France", 1968, "brest-ocean"),
  m("Calanques Navigation Services SARL", "France", 1994, "calanques-nav"),
  m("Scheldt Marine Radio NV", "Belgium", 1951, "scheldtradio"),
  m("Clyde Marine Surveyors & Electronics Ltd", "United Kingdom", 1983, "clydemarine"),
  m("Helvetic Timing & Navigation AG", "Switzerland", 2013, "helvetic-timing"),
  m("Trident Classification Bureau Ltd", "United Kingdom", 1998, "trident-class"),
  m("Nautilus Maritime Training Institute", "Philippines", 0, "nautilus-mti"),
  m("Kaigan Radio Engineering Co., Ltd", "Japan", 1979, "kaigan-radio"),
  m("Haeundae Satellite Communications Inc.", "Republic of Korea", 2018, "haeundae-satcom"),
  m("Harbour Shield Cyber OÜ", "Estonia", 0, "harbourshield"),
  m("Bluefin Integrated Bridge Systems LLC", "United States", 2005, "bluefin-ibs"),
  m("Mistral Antenna Technologies S.p.A.", "Italy", 1985, "mistral-antenna"),
  m("Fjordlink Satellite AS", "Norway", 0, "fjordlink"),
  m("Creekside Marine Electronics LLC", "United Arab Emirates", 2011, "creekside-marine"),
];

export function memberWebsite(member: MemberSeed): string {
  return `https://www.${member.domain}.example`;
}

export type JoinRequestSeed = {
  kind: "join" | "registration";
  company_name: string;
  representative_name: string;
  email: string;
  phone_number: string;
  page_path: string;
  daysAgo: number;
  handled: boolean;
};

export const JOIN_REQUESTS: JoinRequestSeed[] = [
  {
    kind: "join",
    company_name: "Lagoon Coast Marine Radio Ltd",
    representative_name: "Adaeze Nwosu",
    email: "a.nwosu@lagooncoast.example",
    phone_number: "+234 803 555 0142",
    page_path: "/members-join",
    daysAgo: 2,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Nordhavn Marine Electronics AS",
    representative_name: "Sigrid Aasen",
    email: "sigrid.aasen@nordhavn-marine.example",
    phone_number: "+47 55 55 01 23",
    page_path: "/conference",
    daysAgo: 3,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Tasman Navigation Systems Ltd",
    representative_name: "Liam Walker",
    email: "liam.walker@tasmannav.example",
    phone_number: "+64 9 555 0187",
    page_path: "/conference",
    daysAgo: 5,
    handled: true,
  },
  {
    kind: "join",
    company_name: "Andes Pacific Navegación S.A.C.",
    representative_name: "Lucía Fernández",
    email: "lfernandez@andespacifico.example",
    phone_number: "+51 1 555 0199",
    page_path: "/",
    daysAgo: 8,
    handled: false,
  },
  {
    kind: "registration",
    company_name: "Baltic Beacon Technologies Oy",
    representative_name: "Mikko Virtanen",
    email: "mikko.virtanen@balticbeacon.example",
    phone_number: "+358 40 555 0116",
    page_path: "/conference",
    daysAgo: 11,
    handled: true,
  },
  {
    kind: "join",
    company_name: "Coral Sea Electronics Pty Ltd",
    representative_name: "Hannah Brooks",
    email: "hannah@coralsea-electronics.example",
    phone_number: "+61 7 5550 1934",
    page_path: "/members-join",
    daysAgo: 16,
    handled: true,
  },
  {
    kind: "join",
    company_name: "Northern Fjord Maritime Academy",
    representative_name: "Dr Erik Solberg",
    email: "erik.solberg@nfma.example",
    phone_number: "+47 77 55 50 42",
    page_path: "/contact",
    daysAgo: 23,
    handled: true,
  },
  {
    kind: "registration",
    company_name: "Piraeus Navtronics S.A.",
    representative_name: "Eleni Papadopoulou",
    email: "e.papadopoulou@piraeus-navtronics.example",
    phone_number: "+30 210 555 0173",
    page_path: "/conference",
    daysAgo: 27,
    handled: false,
  },
];
