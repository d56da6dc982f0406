import type { SceneName } from "./assets";
import type { MeetingRef } from "./meetings";

/**
 * 36 news posts. `when` places each post relative to the seed date so that the
 * news list always spans the last fourteen months, with a few posts in the
 * current month and a couple around the turn of the year.
 */

export type NewsContext = {
  /** Publication date of the post. */
  date: Date;
  year: number;
  nextConference: MeetingRef;
  lastConference: MeetingRef;
  nextWorkshop: MeetingRef;
  lastWorkshop: MeetingRef;
};

export type When =
  /** A fraction (0–1) of the time elapsed in the current month. */
  | { thisMonth: number }
  | { daysAgo: number; at: [number, number] }
  /** A day of December at the last turn of the year that has passed. */
  | { december: number; at: [number, number] }
  | { after: "lastConference" | "lastWorkshop" | "nextConference"; days: number; at: [number, number] };

type Text = string | ((c: NewsContext) => string);

export type NewsSeed = {
  title: Text;
  author: string;
  scene: SceneName;
  when: When;
  /** Paragraph texts, or HTML blocks when they start with "<". */
  body: Text[];
};

const SG = "Eleanor Whitcombe";
const TD = "Dr Tomasz Nowicki";
const EM = "Charlotte Dubois";
const CO = "Aaron Mensah";
const PR = "Dr Ingrid Halvorsen";

export const NEWS: NewsSeed[] = [
  {
    title: (c) =>
      `Registration now open for the Annual Conference ${c.nextConference.year} in ${c.nextConference.city}`,
    author: EM,
    scene: "harbour",
    when: { thisMonth: 0.85 },
    body: [
      (c) =>
        `Registration is now open for the ${c.nextConference.title}, which takes place at the ${c.nextConference.venue} in ${c.nextConference.city} from ${c.nextConference.dates}. This year's theme is <em>Connected ships, trusted data</em>.`,
      "The programme follows the familiar format: working group meetings on the first day, two days of plenary sessions with a small exhibition, and the General Assembly followed by a technical visit on the last day. Sessions will cover S-100 services in the port approach, VDES, cyber resilience and the question of who is responsible for software on board.",
      "Members benefit from a reduced early registration fee until two months before the conference. Accommodation at a reduced rate is available at several hotels near the venue; the booking code is sent with the registration confirmation.",
      (c) =>
        `Full details and the registration form are on the <a href="/events/${c.nextConference.slug}">conference page</a>. We look forward to welcoming you in ${c.nextConference.city}.`,
    ],
  },
  {
    title: "Masthead welcomes four new members",
    author: EM,
    scene: "horizon",
    when: { thisMonth: 0.5 },
    body: [
      "The Board of Directors has approved the applications of four new members at its latest meeting, bringing the association's membership to more than fifty companies and organisations in twenty-seven countries.",
      "<ul><li><strong>Fjordlink Satellite AS</strong> (Norway) — satellite communication services for offshore and coastal shipping.</li><li><strong>Harbour Shield Cyber OÜ</strong> (Estonia) — cyber security assessment and monitoring for ships and ports.</li><li><strong>Daugava Bay Radio SIA</strong> (Latvia) — installation and service of radio and navigation equipment.</li><li><strong>Nautilus Maritime Training Institute</strong> (Philippines) — training of deck officers and electro-technical officers.</li></ul>",
      '"The range of our new members shows how the industry is changing," said the President, Dr Ingrid Halvorsen. "Satellite service providers, cyber security specialists and training institutes now sit at the same table as the manufacturers and service companies that founded the association."',
      'The new members are listed on the <a href="/members-list">members page</a>. Companies interested in joining can find more information on <a href="/members-join">how to become a member</a>.',
    ],
  },
  {
    title: "Navigation working group meets in Gothenburg",
    author: TD,
    scene: "chart",
    when: { thisMonth: 0.15 },
    body: [
      "The navigation working group will hold its autumn meeting at the offices of Göteborg Bridge Technology AB in Gothenburg. More than twenty experts from member companies have registered.",
      "The main item on the agenda is the review of the draft new edition of S-421. The group will consolidate comments from members on route status handling, schedules and the exchange of routes with vessel traffic services before they are submitted through the IEC national committees.",
      "The group will also discuss the revision of the performance standard for integrated navigation systems and prepare the navigation sessions of the Annual Conference.",
      "Members who wish to take part remotely can contact the secretariat for the connection details.",
    ],
  },
  {
    title: "New technical bulletin: GNSS interference — detection, reporting and response",
    author: TD,
    scene: "radar",
    when: { daysAgo: 19, at: [10, 15] },
    body: [
      "Reports of interference with satellite navigation signals have increased sharply in several sea areas over the past two years. Ships experience position jumps, loss of fix or, in some cases, a plausible but false position — with consequences for every system on the bridge that relies on GNSS, from ECDIS and AIS to the gyro compass speed input and the GMDSS.",
      "A new technical bulletin from the navigation working group explains how current equipment detects and signals degraded GNSS performance, what bridge teams should look for and how to cross-check positions using radar, visual bearings and other independent sources.",
      "The bulletin also recommends a simple, common format for reporting interference events to the flag State and the coastal State, based on the information equipment can record automatically: time, position before and after the event, receiver status messages and the systems affected.",
      "The bulletin is available to members in the document library and will be presented at the next meeting of the IMO Sub-Committee on Navigation, Communications and Search and Rescue.",
    ],
  },
  {
    title: (c) => `Call for presentations: Annual Technical Workshop ${c.nextWorkshop.year}`,
    author: EM,
    scene: "chart",
    when: { daysAgo: 44, at: [9, 5] },
    body: [
      (c) =>
        `Masthead invites proposals for tutorials and test sessions at the ${c.nextWorkshop.title}, to be held in ${c.nextWorkshop.city} from ${c.nextWorkshop.dates}. The theme is <em>S-100 in service: from test beds to the bridge</em>.`,
      "We are particularly interested in practical experience: what worked and what did not when S-100 products such as S-421 route plans, S-124 navigational warnings or S-129 under keel clearance plans were exchanged between real systems.",
      "Proposals should include a title, a summary of no more than 300 words and the equipment or software the presenter will bring. Test session proposals should describe the test cases and the partners involved.",
      "Please send proposals to the secretariat by the end of next month. The programme committee will respond within three weeks.",
    ],
  },
  {
    title: "Masthead submits position on software maintenance to IMO",
    author: SG,
    scene: "signal",
    when: { daysAgo: 33, at: [14, 40] },
    body: [
      "Masthead has submitted a paper to the Maritime Safety Committee setting out the industry's position on the maintenance of software in shipborne navigation and communication equipment.",
      "The paper notes that software on board is updated more often than ever, to correct defects, to address cyber security vulnerabilities and to implement new chart and data formats, yet the rules for doing so safely are fragmented across type approval, class rules and company procedures.",
      "<blockquote>We ask for a common, risk-based approach: updates should be authenticated, their effect on the type-approved functions documented, the crew informed and the update recorded on board.</blockquote>",
      "The submission proposes that IMO develop guidelines based on existing IEC work, in particular IEC 63154 and the software maintenance provisions of IEC 61162-460, rather than new requirements for each type of equipment.",
      "The full text of the position paper is available in the document library.",
    ],
  },
  {
    title: "Spotlight magazine: autumn edition out now",
    author: CO,
    scene: "seascape",
    when: { daysAgo: 58, at: [11, 30] },
    body: [
      "The autumn edition of <em>Spotlight</em>, the Masthead magazine, is now available to members in the document library.",
      "This issue features an interview with the chair of the cyber security working group on two years of IACS unified requirements E26 and E27, a report from the Annual Technical Workshop, and a profile of a family-run radio service company celebrating its seventy-fifth anniversary.",
      "Our technology pages look at low-earth-orbit satellite services and what they mean for the GMDSS, and at the first ships to carry VDES on a trial basis.",
      "Members who would like to contribute to the next edition are invited to contact the communications officer.",
    ],
  },
  {
    title: "Masthead at NCSR: VDES, GNSS resilience and the e-navigation strategy",
    author: SG,
    scene: "signal",
    when: { daysAgo: 72, at: [16, 20] },
    body: [
      "A Masthead delegation of six experts attended the latest session of the IMO Sub-Committee on Navigation, Communications and Search and Rescue (NCSR).",
      "On VDES, the Sub-Committee continued work on the performance standards. Masthead supported a step-by-step approach in which equipment standards are finalised and experience gained on a voluntary basis before carriage is considered.",
      "On resilient position, navigation and timing, Masthead presented information on how current receivers detect interference and proposed that the guidance for bridge teams be updated. The proposal was well received and will be taken forward in a correspondence group.",
      "The Sub-Committee also reviewed the e-navigation strategy implementation plan. Masthead will continue to contribute the experience of its members with the S-100 test beds.",
    ],
  },
  {
    title: "Service Code of Practice: revised edition adds remote service and cyber hygiene",
    author: TD,
    scene: "horizon",
    when: { daysAgo: 88, at: [8, 50] },
    body: [
      "The service and installation working group has published a revised edition of the Masthead Service Code of Practice. The code sets out the standards that member companies apply when they install, maintain and repair equipment on board.",
      "The main changes are a new section on remote service — diagnostics and updates carried out over a connection from shore — and expanded requirements for cyber hygiene, including the checking of service laptops and removable media and the use of authorised software sources only.",
      "The checklists for the annual radio survey, the annual performance test of voyage data recorders and the annual testing of AIS have been updated to reflect the latest IMO guidance.",
      'Service members are asked to confirm compliance with the revised code at the next annual renewal. The code is available on the <a href="/service-code-of-practice">Service Code of Practice</a> page.',
    ],
  },
  {
    title: (c) => `${c.lastWorkshop.title}: route exchange works — mostly`,
    author: TD,
    scene: "chart",
    when: { after: "lastWorkshop", days: 4, at: [12, 10] },
    body: [
      (c) =>
        `Sixty-eight engineers from twenty-four companies met in ${c.lastWorkshop.city} for the ${c.lastWorkshop.title}, which focused on interoperability between S-421, SECOM and IEC 61162-450 networks.`,
      "In the route exchange sessions, six ECDIS makes and three shore planning systems exchanged more than four hundred route plans. Most exchanges worked at the first attempt; the failures were traced to differences in the handling of schedules and of route status, which will be reported to the S-421 editors.",
      "SECOM upload and acknowledgement worked between all participating services, but certificate handling remains the most demanding part of an implementation. Participants agreed to draft a technical bulletin on certificate management on board.",
      "The workshop report will be published in the document library. Our thanks go to Tirreno Navigazione Elettronica for hosting and to all sponsors.",
    ],
  },
  {
    title: "IEC TC 80 plenary: new work on VDES, radar and cyber security",
    author: TD,
    scene: "radar",
    when: { daysAgo: 118, at: [15, 0] },
    body: [
      "The annual plenary meeting of IEC Technical Committee 80 approved several new work items of direct interest to Masthead members.",
      "<ul><li>A new standard for shipborne VDES equipment, building on ITU-R M.2092.</li><li>A revision of IEC 62388 for radar to take account of solid-state transmitters and the presentation of S-100 information.</li><li>Maintenance of IEC 63154 on cybersecurity, based on the first years of experience with type approval.</li></ul>",
      "Masthead members hold the convenorship or act as editors in several of the working groups concerned. Members wishing to contribute should contact their national committee or the Technical Director.",
    ],
  },
  {
    title: "New chair for the radiocommunications working group",
    author: SG,
    scene: "signal",
    when: { daysAgo: 133, at: [10, 45] },
    body: [
      "The Board has appointed Dr Amelia Grant as chair of the radiocommunications working group. She succeeds Pieter van der Berg, who chaired the group for eight years and now joins the Board of Directors.",
      "Dr Grant has worked in maritime radio for more than twenty years, most recently as head of regulatory affairs at a satellite communications company. She has represented the association at ITU-R Working Party 5B since 2019.",
      '"The next few years will bring the modernised GMDSS into service, the first VDES installations and important decisions on spectrum," she said. "The working group will make sure the experience of manufacturers and service companies is heard."',
    ],
  },
  {
    title: "Manufacturer ID register now available in the members area",
    author: CO,
    scene: "radar",
    when: { daysAgo: 149, at: [9, 25] },
    body: [
      "The register of manufacturer identifiers maintained by Masthead can now be consulted online in the members area. Until now, members had to ask the secretariat to check whether a code was available.",
      "The identifiers are three-character codes used, for example, in the vendor ID field of AIS static data reports and in IEC 61162 interfaces. More than three hundred identifiers have been allocated since the register was created.",
      'Requests for new identifiers are still handled by the secretariat. The procedure is described on the <a href="/manufacturer-ids">Manufacturer IDs</a> page.',
    ],
  },
  {
    title: "Young Engineer Award: applications open",
    author: EM,
    scene: "seascape",
    when: { daysAgo: 164, at: [13, 35] },
    body: [
      "Masthead invites applications for its Young Engineer Award, which recognises an outstanding contribution by an engineer under 35 working for a member company.",
      "The award is open to engineers in any discipline — hardware, software, testing, installation or service. Candidates are nominated by their employer with a short description of their work and its benefit to safety or efficiency at sea.",
      "The winner receives a trophy, a cash prize and free registration for the Annual Conference, where the award is presented during the closing session.",
    ],
  },
  {
    title: "General Assembly re-elects Dr Ingrid Halvorsen as President",
    author: SG,
    scene: "harbour",
    when: { after: "lastConference", days: 0, at: [17, 45] },
    body: [
      (c) =>
        `The General Assembly of Masthead, meeting in ${c.lastConference.city} during the Annual Conference, re-elected Dr Ingrid Halvorsen as President for a further term of three years.`,
      "The Assembly also elected two new members of the Board of Directors, Hye-jin Park of Hanbit Marine Systems and Pieter van der Berg of Zeeland Radio Services, and approved the accounts and the budget.",
      "In her address, the President thanked the working group chairs and the secretariat and set out three priorities for the coming term: software maintenance, resilient navigation and the training of the next generation of service engineers.",
      "The minutes of the General Assembly are available to members in the document library.",
    ],
  },
  {
    title: (c) => `Record attendance at the Annual Conference in ${c.lastConference.city}`,
    author: CO,
    scene: "harbour",
    when: { after: "lastConference", days: 2, at: [9, 30] },
    body: [
      (c) =>
        `More than 320 participants from 31 countries attended the ${c.lastConference.title} in ${c.lastConference.city}, the highest number in the association's history.`,
      "The keynote on the digitalisation of port and ship interfaces set the tone for two days of plenary sessions. A panel on the modernised GMDSS drew lively debate about the transition for ships in service, and the session on remote software updates showed how far type approval practice still differs between flag States.",
      "The exhibition featured 24 members showing new equipment, from multi-system GNSS receivers to integrated bridge consoles with central alert management.",
      "Presentations are available to members in the document library. Thank you to our host, Lion City Marine Systems, and to all sponsors for their support.",
    ],
  },
  {
    title: (c) => `Programme announced for the Annual Conference ${c.lastConference.year}`,
    author: EM,
    scene: "signal",
    when: { after: "lastConference", days: -75, at: [11, 0] },
    body: [
      (c) =>
        `The programme committee has published the programme for the ${c.lastConference.title} in ${c.lastConference.city}, ${c.lastConference.dates}, under the theme <em>Navigating the digital transition</em>.`,
      "Highlights include a keynote on the digitalisation of port and ship interfaces in Asia, a panel on the modernised GMDSS in practice and sessions on remote software updates and satellite services for safety communications.",
      "As always, the first day is reserved for working group meetings and the last day for the General Assembly, followed by a technical visit.",
    ],
  },
  {
    title: "Season's greetings from the President",
    author: PR,
    scene: "seascape",
    when: { december: 19, at: [10, 0] },
    body: [
      "As the year draws to a close, I would like to thank all our members, working group experts and partners for their commitment to the association.",
      "This year we welcomed new members from four continents, submitted our positions on software maintenance and GNSS resilience to IMO, and held a technical workshop that showed both how far interoperability has come and how much work remains.",
      "None of this would be possible without the time that experts from member companies give to the association, often on top of demanding jobs. On behalf of the Board, thank you.",
      "I wish you and your families a peaceful holiday season and a healthy and successful new year.",
    ],
  },
  {
    title: "The year in review: ten highlights",
    author: SG,
    scene: "horizon",
    when: { december: 30, at: [15, 30] },
    body: [
      "Before we turn the page on the calendar, here are ten moments from the past year at Masthead.",
      "<ol><li>Membership passed fifty companies and organisations.</li><li>A record attendance at the Annual Conference.</li><li>The revised Service Code of Practice.</li><li>Our position paper on software maintenance.</li><li>Six webinars watched by more than 1,500 people.</li><li>The technical bulletin on GNSS interference.</li><li>Route exchange tests between six ECDIS makes at the technical workshop.</li><li>The manufacturer ID register moved online.</li><li>Two new working group chairs.</li><li>The first edition of the service engineer qualification scheme.</li></ol>",
      "Thank you for being part of it. The secretariat will be closed between Christmas and New Year and reopens on the first working day of January.",
    ],
  },
  {
    title: "Cyber security working group publishes guidance on secure remote service",
    author: TD,
    scene: "radar",
    when: { daysAgo: 240, at: [14, 5] },
    body: [
      "Remote access to equipment on board allows faster diagnosis and fewer service visits, but it also opens a path for attackers. A new technical paper from the cyber security working group describes how remote service can be provided securely.",
      "The paper recommends that remote sessions be initiated or approved from on board, that connections be authenticated and encrypted end to end, and that every session be logged with the identity of the engineer, the equipment accessed and the actions performed.",
      "It also explains how remote service fits with the requirements of IEC 63154 and IACS unified requirements E26 and E27, and what shipowners should include in their service agreements.",
    ],
  },
  {
    title: "Masthead and IALA agree closer cooperation on VDES",
    author: SG,
    scene: "signal",
    when: { daysAgo: 262, at: [12, 20] },
    body: [
      "Masthead and IALA have agreed to hold a joint expert meeting on VDES each year, bringing together aids-to-navigation authorities, administrations and equipment manufacturers.",
      "The VHF Data Exchange System extends AIS with additional channels for data exchange between ships and shore, including via satellite. Standards for shore and ship equipment are being developed in parallel, and both organisations see a need to align them closely.",
      "The first joint meeting will review trial results and identify gaps between the shore and ship standards. Members interested in taking part should contact the secretariat.",
    ],
  },
  {
    title: "GMDSS modernisation: what manufacturers and service companies need to know",
    author: TD,
    scene: "signal",
    when: { daysAgo: 285, at: [8, 40] },
    body: [
      "The amendments to SOLAS Chapter IV that modernise the Global Maritime Distress and Safety System are now in force. They remove obsolete requirements, recognise additional satellite service providers and restructure the chapter around functional requirements.",
      "For manufacturers, the revised performance standards for MF/HF and VHF radio installations and for ship earth stations mean that existing type approvals must be reviewed. For service companies, the changes affect the annual radio survey and shore-based maintenance arrangements.",
      "Ships in service may generally continue to use existing equipment, but replacements and new installations must meet the revised standards. Our radiocommunications working group has prepared an overview of the transition provisions, available in the document library.",
      "A webinar on the subject will be announced in the events calendar.",
    ],
  },
  {
    title: "Standards watch: recently published and upcoming standards",
    author: TD,
    scene: "chart",
    when: { daysAgo: 301, at: [16, 15] },
    body: [
      "The latest edition of our standards watch lists the IEC, ISO and ITU documents published in the past six months and those expected in the next year.",
      "Recently published documents include amendments to the IEC 61162 interface standards and a new edition of the bridge alert management standard. Among the upcoming documents are the new editions of the radar and AIS Class A test standards and the first VDES equipment standard.",
      'Both lists are maintained in the document library under <a href="/dashboard/recently-published-standards">recently published standards</a> and <a href="/dashboard/upcoming-standards">upcoming standards</a>, with forecast publication dates.',
    ],
  },
  {
    title: "Spotlight magazine: spring edition",
    author: CO,
    scene: "seascape",
    when: { daysAgo: 232, at: [10, 10] },
    body: [
      "The spring edition of <em>Spotlight</em> is out. The cover story looks at how route exchange could help ports plan arrivals more precisely and cut fuel consumption and emissions at anchor.",
      "Also in this issue: what the modernised GMDSS means for service companies, a conversation with two electro-technical officers about their first year at sea, and our regular round-up of news from members.",
      "<em>Spotlight</em> is available to members in the document library.",
    ],
  },
  {
    title: "Bridge alert management: survey of seafarers' experience",
    author: TD,
    scene: "horizon",
    when: { daysAgo: 320, at: [11, 45] },
    body: [
      "Masthead and two seafarers' organisations have launched a survey on the experience of bridge teams with central alert management systems built to IEC 62923.",
      "The survey asks deck officers how often alerts occur, how clear they are and whether the central alert management display helps them respond. It takes about ten minutes and is anonymous.",
      "Results will be shared with the IMO, with IEC Technical Committee 80 and with member companies, and will be presented at the Annual Conference.",
    ],
  },
  {
    title: "Webinar recordings now available to members",
    author: CO,
    scene: "radar",
    when: { daysAgo: 338, at: [15, 55] },
    body: [
      "Recordings and slides of all Masthead webinars from the past two years are now available in the members area, including the sessions on SECOM in practice and on preparing for IEC 63154 type approval.",
      "Each recording comes with a short summary and the questions asked by participants, with answers from the speakers.",
      "Members can find the recordings through the document library or by searching the site.",
    ],
  },
  {
    title: "Service engineer qualification scheme launched",
    author: EM,
    scene: "horizon",
    when: { daysAgo: 356, at: [9, 0] },
    body: [
      "Masthead has launched a qualification scheme for engineers who install and service radio and navigation equipment on ships. The scheme defines three competence levels, from installation technician to senior service engineer.",
      "The scheme complements, and does not replace, manufacturers' product training. It covers the knowledge that every engineer needs regardless of the make of equipment: regulations and surveys, electrical safety on board, interfaces, cyber hygiene and reporting.",
      "Training providers can apply for recognition, and service companies can register their engineers. A webinar introducing the scheme is listed in the events calendar.",
    ],
  },
  {
    title: "Autonomous ships: Masthead comments on the draft MASS Code",
    author: SG,
    scene: "radar",
    when: { daysAgo: 371, at: [13, 10] },
    body: [
      "Masthead has submitted comments on the draft code for maritime autonomous surface ships (MASS) developed at IMO.",
      "The association supports a goal-based code but notes that many of its functional requirements — for example on situational awareness, remote control and communications — depend on the performance of electronic systems for which no equipment standards yet exist.",
      "We propose that IMO invite IEC to develop the supporting standards in parallel, and offer the experience of our members in the navigation, radiocommunications and cyber security working groups.",
    ],
  },
  {
    title: "ITU World Radiocommunication Conference: maritime agenda items",
    author: TD,
    scene: "signal",
    when: { daysAgo: 390, at: [10, 30] },
    body: [
      "Preparations are under way for the next World Radiocommunication Conference, where several agenda items affect maritime services, including the use of additional frequencies for VDES and the protection of maritime safety frequencies.",
      "Masthead contributes to the preparatory work in ITU-R Working Party 5B through its consultative status. Our radiocommunications working group has prepared a briefing for members on each maritime item, with the positions of the regional groups.",
      "Members are encouraged to share the briefing with their national administrations, which decide on the positions taken at the conference.",
    ],
  },
  {
    title: "Cospas-Sarsat second-generation beacons: guidance for service companies",
    author: TD,
    scene: "seascape",
    when: { daysAgo: 405, at: [14, 50] },
    body: [
      "Second-generation emergency position-indicating radio beacons (EPIRBs) are now available from several manufacturers. They use new signal formats for faster and more accurate location and can receive a return link confirming that the distress alert has been received.",
      "A technical bulletin from the service and installation working group explains what changes for service companies: registration and coding, the testing of beacons during surveys and the disposal of old units.",
      "The bulletin is available in the document library.",
    ],
  },
  {
    title: "S-421 test datasets published for members",
    author: TD,
    scene: "chart",
    when: { daysAgo: 214, at: [9, 40] },
    body: [
      "The navigation working group has published a set of S-421 route plan test datasets for developers of ECDIS, planning stations and shore services.",
      "The datasets cover simple and complex routes, schedules with several calculated and manual options, routes crossing the antimeridian and deliberately malformed files for negative testing. Each dataset comes with the equivalent RTZ file where a mapping is possible.",
      'The datasets are available in the members area. Feedback and additional test cases are welcome through the <a href="/s-421">S-421 page</a>.',
    ],
  },
  {
    title: "SECOM: implementation guidance for shipowners",
    author: TD,
    scene: "signal",
    when: { daysAgo: 190, at: [11, 20] },
    body: [
      "SECOM, the standard for secure ship–shore communication published as IEC 63173-2, is increasingly used by shore services to send S-100 data to ships. A new technical paper explains what it means for shipowners.",
      "The paper describes the role of digital certificates, how they are issued and renewed, and what happens on board when a certificate expires. It includes a checklist for shipowners introducing SECOM-based services on their fleet.",
      "The paper was prepared jointly by the navigation and cyber security working groups and is available in the document library.",
    ],
  },
  {
    title: "In memoriam: Captain Harald Lindqvist",
    author: PR,
    scene: "horizon",
    when: { daysAgo: 176, at: [12, 0] },
    body: [
      "It is with great sadness that we learned of the death of Captain Harald Lindqvist, honorary member of Masthead and for twenty years chair of our navigation working group.",
      "Harald began his career as a radio officer, became a master mariner and later led product management at a navigation equipment manufacturer. He brought to the association a rare understanding of both the bridge and the engineering office.",
      'Colleagues remember his patience in meetings, his precise drafting and his stories from sea. Our thoughts are with his family. A tribute is published on the <a href="/tributes">Tributes</a> page.',
    ],
  },
  {
    title: "IEC 61162-450 network configuration: new technical bulletin",
    author: TD,
    scene: "radar",
    when: { daysAgo: 125, at: [15, 35] },
    body: [
      "More and more bridge equipment is connected over lightweight Ethernet as defined in IEC 61162-450. Experience from installations and from the technical workshop shows that many problems arise from network configuration rather than from the equipment itself.",
      "A new technical bulletin gives practical guidance on multicast groups, system function IDs, network segregation and the use of IEC 61162-460 gateways for connections to other networks on board.",
      "The bulletin includes a configuration checklist for installers and is available in the document library.",
    ],
  },
  {
    title: "Masthead joins industry call for harmonised type approval of software updates",
    author: SG,
    scene: "signal",
    when: { daysAgo: 102, at: [10, 5] },
    body: [
      "Masthead has joined associations of shipowners and classification societies in calling for a harmonised approach to the approval of software updates for type-approved equipment.",
      "Today, the same security update may require a full re-approval in one flag State and a simple notification in another. The joint statement asks administrations to agree on criteria for deciding when an update affects type-approved functions.",
      "The statement will be submitted to the next session of the Maritime Safety Committee.",
    ],
  },
  {
    title: "Electronic equipment and the environment: lifecycle guidance",
    author: TD,
    scene: "seascape",
    when: { daysAgo: 140, at: [13, 55] },
    body: [
      "Ships are increasingly expected to report on the environmental footprint of their equipment, from energy use to end-of-life disposal. A new technical paper from Masthead gives manufacturers and service companies guidance on the lifecycle of marine electronic equipment.",
      "The paper covers the design of equipment for repair and upgrade, the availability of spare parts, the recovery and recycling of units removed from ships and the handling of batteries in beacons and portable radios.",
      "It also proposes information that manufacturers could provide to shipowners to support inventories of hazardous materials and environmental reporting.",
    ],
  },
];
