import type { SceneName } from "./assets";
import { addDays, isoDate, longDate, monthStart } from "./util";

/**
 * The document library: a category tree under one root and the papers in its
 * leaves. Top-level categories carry the view types of SPEC §9, which decide
 * the sorting options; sub-categories inherit their parent's view type.
 */

export type CategorySeed = {
  slug: string;
  name: string;
  title: string;
  title_description: string;
  description: string;
  content: string;
  view_type: string | null;
  /** Readable by visitors at /library (children inherit it); members-only without. */
  is_public?: boolean;
  /** For the members of these working groups only (their slugs; issue 36). */
  groups?: string[];
  image?: { scene: SceneName; variant: number };
  children?: CategorySeed[];
};

export const LIBRARY: CategorySeed = {
  slug: "library",
  name: "Document library",
  title: "Document library",
  title_description: "Policies, technical publications, standards and the Spotlight magazine",
  description:
    "The Masthead document library collects the association's policies, technical bulletins and papers, our watch lists of international standards and every edition of the Spotlight magazine.",
  content:
    "<p>Browse the library by category, or use the search box to find a document by title, number or organisation. Documents are available to members; some are also public.</p>",
  view_type: null,
  image: { scene: "chart", variant: 5 },
  children: [
    {
      slug: "policies",
      name: "Policies",
      title: "Masthead policies",
      title_description: "Positions agreed by the members of the association",
      description:
        "Policies and position papers approved by the Board of Directors, setting out the association's view on regulatory and technical matters.",
      content:
        "<p>Policies are reviewed at least every three years. The revision and date of each policy are shown in the list; superseded revisions are available from the secretariat on request.</p>",
      view_type: "masthead-policy",
      image: { scene: "seascape", variant: 7 },
    },
    {
      slug: "technical-bulletins",
      name: "Technical bulletins",
      title: "Technical bulletins",
      title_description: "Short practical notes from the working groups",
      description:
        "Technical bulletins address specific issues met in the design, installation and service of equipment, and explain new requirements in practical terms.",
      content:
        "<p>Bulletins are numbered by year of publication. They are issued for information and do not replace manufacturers' instructions or the requirements of flag States and classification societies.</p>",
      view_type: "masthead-technical-bulletins",
      image: { scene: "radar", variant: 4 },
      children: [
        {
          slug: "technical-bulletins-navigation",
          name: "Navigation",
          title: "Navigation bulletins",
          title_description: "Radar, ECDIS, GNSS, AIS and integrated bridge systems",
          description: "Bulletins prepared by the navigation working group.",
          content:
            "<p>Questions about these bulletins can be sent to the navigation working group through the secretariat.</p>",
          view_type: "masthead-technical-bulletins",
        },
        {
          slug: "technical-bulletins-radio",
          name: "Radio and GMDSS",
          title: "Radio and GMDSS bulletins",
          title_description: "GMDSS, satellite communications and VDES",
          description: "Bulletins prepared by the radiocommunications working group.",
          content:
            "<p>Questions about these bulletins can be sent to the radiocommunications working group through the secretariat.</p>",
          view_type: "masthead-technical-bulletins",
        },
        {
          slug: "technical-bulletins-service",
          name: "Installation and service",
          title: "Installation and service bulletins",
          title_description: "Installation practice, surveys and annual tests",
          description: "Bulletins prepared by the service and installation working group.",
          content:
            '<p>These bulletins complement the <a href="/service-code-of-practice">Service Code of Practice</a>.</p>',
          view_type: "masthead-technical-bulletins",
        },
      ],
    },
    {
      slug: "technical-papers",
      name: "Technical papers",
      title: "Technical papers",
      title_description: "In-depth studies by the working groups",
      description:
        "Technical papers analyse a subject in depth — test methods, interference cases, implementation of new standards — and are the basis for many of the association's positions.",
      content: "<p>Papers are grouped by the working group that prepared them.</p>",
      view_type: "masthead-technical-papers",
      image: { scene: "chart", variant: 1 },
      children: [
        {
          slug: "technical-papers-navigation",
          name: "Navigation",
          title: "Technical papers — Navigation",
          title_description: "Working group Navigation",
          description: "Papers on radar, ECDIS, route exchange, integrated navigation and resilient PNT.",
          content: "<p>Prepared by the navigation working group.</p>",
          view_type: "masthead-technical-papers",
        },
        {
          slug: "technical-papers-radiocommunications",
          name: "Radiocommunications",
          title: "Technical papers — Radiocommunications",
          title_description: "Working group Radiocommunications",
          description: "Papers on the GMDSS, VDES, satellite services and spectrum.",
          content: "<p>Prepared by the radiocommunications working group.</p>",
          view_type: "masthead-technical-papers",
        },
        {
          slug: "technical-papers-cyber-security",
          name: "Cyber security",
          title: "Technical papers — Cyber security",
          title_description: "Working group Cyber security",
          description: "Papers on secure design, software maintenance, remote service and secure communication.",
          content: "<p>Prepared by the cyber security working group.</p>",
          view_type: "masthead-technical-papers",
        },
      ],
    },
    {
      slug: "upcoming-standards",
      name: "Upcoming standards",
      title: "Upcoming standards",
      title_description: "International standards in preparation",
      description:
        "Standards and regulations under development at IEC, ISO, ITU, IMO and IALA that will affect marine electronic equipment, with their current stage and forecast publication date.",
      content:
        "<p>Forecast dates are those published by the responsible committee and may change. Masthead members take part in most of the committees listed.</p>",
      view_type: "upcoming-standards",
      image: { scene: "signal", variant: 6 },
    },
    {
      slug: "recently-published-standards",
      name: "Recently published standards",
      title: "Recently published standards",
      title_description: "Published in the last eighteen months",
      description:
        "International standards and regulations relevant to marine electronics published in the last eighteen months, with a short summary of what changed.",
      content:
        "<p>Standards must be obtained from the publishing organisation. The summaries here are prepared by Masthead for its members.</p>",
      view_type: "recently-published-standards",
      is_public: true,
      image: { scene: "horizon", variant: 1 },
    },
    {
      slug: "working-groups",
      name: "Working groups",
      title: "Working group documents",
      title_description: "Drafts, minutes and meeting papers of the working groups",
      description: "Each working group keeps its drafts and meeting papers here; a group's members see its folder.",
      content: "<p>Chairs keep their group's folder up to date. Ask a chair to join a group.</p>",
      view_type: null,
      is_public: false,
      image: { scene: "chart", variant: 3 },
      children: [
        {
          slug: "secom-documents",
          name: "SECOM working group",
          title: "SECOM working group documents",
          title_description: "Protocol profile drafts, test vectors and trial reports",
          description: "Working documents of the SECOM working group.",
          content: "<p>Drafts are for the group's members until the Board approves them.</p>",
          view_type: null,
          is_public: false,
          groups: ["secom"],
        },
        {
          slug: "s-421-documents",
          name: "S-421 route exchange",
          title: "S-421 route exchange documents",
          title_description: "The product specification drafts and test data",
          description: "Working documents of the S-421 route exchange group.",
          content: "<p>Comments on the drafts go to the group's chair.</p>",
          view_type: null,
          is_public: false,
          groups: ["s-421-route-exchange"],
        },
        {
          slug: "cyber-security-documents",
          name: "Cyber security",
          title: "Cyber security working group documents",
          title_description: "Type-approval questions and draft answers",
          description: "Working documents of the cyber security working group.",
          content: "<p>Questions from test houses and the group's draft answers.</p>",
          view_type: null,
          is_public: false,
          groups: ["cyber-security"],
        },
      ],
    },
    {
      slug: "spotlight-magazine",
      name: "Spotlight magazine",
      title: "Spotlight magazine",
      title_description: "The Masthead magazine, published in spring and autumn",
      description:
        "Spotlight brings news from members, interviews, features on new technology and reports from Masthead events.",
      content: "<p>Every edition since the magazine went digital is available here.</p>",
      view_type: "spotlight-magazine",
      is_public: true,
      image: { scene: "seascape", variant: 2 },
    },
  ],
};

export type PaperSeed = {
  category: string;
  name: string;
  number: string | null;
  organization: string;
  reference: string | null;
  revision: string | null;
  version: string | null;
  date: string | null;
  publication_date: string | null;
  forecast_date: string | null;
  meeting: string | null;
  description: string;
  /** Text of the generated PDF: paragraphs, "## " marks a heading. */
  pdf: string[];
  /** Earlier files of the paper, newest first, each with the labels it carried. */
  revisions?: { revision: string; version: string | null; date: string; replacedDaysAgo: number; pdf: string[] }[];
};

type MastheadDoc = {
  daysAgo: number;
  name: string;
  description: string;
  meeting?: string;
  revision?: string;
};

const POLICIES: MastheadDoc[] = [
  {
    daysAgo: 45,
    name: "Policy on software maintenance of shipborne equipment",
    description:
      "Sets out the principles members apply to software updates of navigation and radiocommunication equipment: authentication, documentation of the effect on type-approved functions, information to the crew and records on board.",
    revision: "Rev. 1",
  },
  {
    daysAgo: 130,
    name: "Policy on cyber resilience of navigation and communication systems",
    description:
      "Supports the application of IEC 63154 to shipborne equipment and alignment between type approval and the IACS unified requirements E26 and E27.",
    revision: "Rev. 2",
  },
  {
    daysAgo: 260,
    name: "Policy on the VHF Data Exchange System",
    description:
      "Supports voluntary carriage of VDES while equipment standards are completed, and sets out the conditions under which mandatory carriage could be considered.",
    revision: "Rev. 1",
  },
  {
    daysAgo: 390,
    name: "Policy on the modernisation of the GMDSS",
    description:
      "Describes the transition periods the industry needs to redesign, approve and install equipment meeting the revised SOLAS Chapter IV.",
    revision: "Rev. 3",
  },
  {
    daysAgo: 520,
    name: "Policy on resilient position, navigation and timing",
    description:
      "Calls for multi-system GNSS receivers, integrity monitoring and independent back-up sources, and for clear indication to the bridge team when position information is degraded.",
    revision: "Rev. 1",
  },
  {
    daysAgo: 700,
    name: "Policy on the harmonised presentation of navigation information",
    description:
      "Encourages S-100 based products and a common approach to bridge alert management to reduce differences between makers that can confuse bridge teams.",
    revision: "Rev. 2",
  },
  {
    daysAgo: 880,
    name: "Policy on competition law compliance",
    description:
      "Rules for the conduct of Masthead meetings so that the exchange of information between members complies with competition law in all jurisdictions.",
    revision: "Rev. 4",
  },
  {
    daysAgo: 1100,
    name: "Policy on the independence of service and survey work",
    description:
      "Principles that keep radio surveys and annual performance tests independent of commercial interests in the sale of equipment and spare parts.",
    revision: "Rev. 2",
  },
];

const BULLETINS: (MastheadDoc & { category: string })[] = [
  {
    category: "technical-bulletins-navigation",
    daysAgo: 19,
    name: "GNSS interference — detection, reporting and response",
    description:
      "How current equipment detects and signals degraded GNSS performance, how bridge teams can cross-check positions, and a common format for reporting interference events.",
  },
  {
    category: "technical-bulletins-navigation",
    daysAgo: 125,
    name: "IEC 61162-450 network configuration on the bridge",
    description:
      "Practical guidance on multicast groups, system function IDs, network segregation and IEC 61162-460 gateways, with a checklist for installers.",
  },
  {
    category: "technical-bulletins-navigation",
    daysAgo: 300,
    name: "ECDIS and the transition to S-100 charts",
    description:
      "What the dual-fuel period of S-57 and S-101 charts means for ECDIS users, manufacturers and chart distributors.",
  },
  {
    category: "technical-bulletins-navigation",
    daysAgo: 470,
    name: "AIS Class B units on SOLAS vessels",
    description:
      "Why Class B AIS cannot replace Class A equipment where carriage is required, and how to identify incorrectly installed units during surveys.",
  },
  {
    category: "technical-bulletins-navigation",
    daysAgo: 690,
    name: "Heading sensors and rate-of-turn accuracy",
    description:
      "The effect of heading sensor latency and accuracy on radar target tracking and ARPA, with recommendations for installers.",
  },
  {
    category: "technical-bulletins-radio",
    daysAgo: 75,
    name: "Second-generation EPIRBs: coding, registration and testing",
    description:
      "What changes for service companies with Cospas-Sarsat second-generation beacons, including return link service and the testing of beacons during surveys.",
  },
  {
    category: "technical-bulletins-radio",
    daysAgo: 285,
    name: "Transition provisions of the modernised GMDSS",
    description:
      "An overview of the revised SOLAS Chapter IV and the transition provisions for new installations, replacements and ships in service.",
  },
  {
    category: "technical-bulletins-radio",
    daysAgo: 510,
    name: "NAVTEX reception problems caused by on-board interference",
    description:
      "Typical sources of interference with NAVTEX reception on modern ships — LED lighting, variable-frequency drives and switched-mode power supplies — and how to locate them.",
  },
  {
    category: "technical-bulletins-radio",
    daysAgo: 760,
    name: "DSC test calls and the reduction of false alerts",
    description:
      "Good practice for routine testing of DSC equipment without generating false distress alerts, with guidance for crews and service engineers.",
  },
  {
    category: "technical-bulletins-service",
    daysAgo: 90,
    name: "Annual performance test of VDRs after software updates",
    description:
      "When a software update of a voyage data recorder requires a new annual performance test, and what the test certificate should record.",
  },
  {
    category: "technical-bulletins-service",
    daysAgo: 240,
    name: "Cyber hygiene for service laptops and removable media",
    description:
      "Minimum measures for service companies: dedicated laptops, malware checks before connection, authorised software sources and records of media used on board.",
  },
  {
    category: "technical-bulletins-service",
    daysAgo: 430,
    name: "Antenna installation and cable routing for satellite terminals",
    description:
      "Guidance on the siting of satellite antennas to avoid blockage and interference with radar and GNSS antennas, and on cable routing and grounding.",
  },
  {
    category: "technical-bulletins-service",
    daysAgo: 640,
    name: "Battery management for GMDSS reserve sources of energy",
    description:
      "Checking and replacing batteries of the reserve source of energy, including lithium batteries, and recording the results of tests.",
  },
];

const TECH_PAPERS: (MastheadDoc & { category: string })[] = [
  {
    category: "technical-papers-navigation",
    daysAgo: 60,
    name: "S-421 route exchange: results of the interoperability sessions",
    description:
      "Analysis of more than four hundred route exchanges between six ECDIS makes and three shore planning systems, with the causes of failures and proposals to the S-421 editors.",
    meeting: "Annual Technical Workshop",
  },
  {
    category: "technical-papers-navigation",
    daysAgo: 214,
    name: "Mapping RTZ 1.2 routes to S-421",
    description:
      "A field-by-field mapping between RTZ and S-421 route plans, covering waypoints, legs, schedules and extensions, and the cases where information is lost.",
  },
  {
    category: "technical-papers-navigation",
    daysAgo: 410,
    name: "Resilient PNT on board: receiver integrity and back-up sources",
    description:
      "A review of integrity monitoring in multi-system GNSS receivers and of terrestrial and inertial back-up options for position and timing.",
  },
  {
    category: "technical-papers-navigation",
    daysAgo: 600,
    name: "Bridge alert management in service: a survey of bridge teams",
    description:
      "Results of a survey of deck officers on central alert management built to IEC 62923, with recommendations for manufacturers and integrators.",
  },
  {
    category: "technical-papers-navigation",
    daysAgo: 820,
    name: "Radar target detection with solid-state transmitters",
    description:
      "A comparison of detection performance of magnetron and solid-state radars in clutter, and implications for the revision of IEC 62388.",
  },
  {
    category: "technical-papers-radiocommunications",
    daysAgo: 110,
    name: "VDES satellite component: link budget and coverage",
    description:
      "Link budget calculations for the satellite component of VDES with typical shipborne antennas, and expected coverage at different latitudes.",
  },
  {
    category: "technical-papers-radiocommunications",
    daysAgo: 330,
    name: "Low-earth-orbit satellite services and the GMDSS",
    description:
      "What LEO constellations could offer for distress and safety communications, and the criteria for recognition as GMDSS service providers.",
  },
  {
    category: "technical-papers-radiocommunications",
    daysAgo: 520,
    name: "Maritime spectrum needs for the next decade",
    description:
      "An estimate of the spectrum needed for VHF data, satellite services and digital voice, prepared as input to the World Radiocommunication Conference.",
  },
  {
    category: "technical-papers-radiocommunications",
    daysAgo: 740,
    name: "Digital voice on maritime VHF: options and obstacles",
    description:
      "A study of digital voice technologies for maritime VHF and the obstacles to their introduction alongside analogue equipment.",
  },
  {
    category: "technical-papers-radiocommunications",
    daysAgo: 960,
    name: "Shore-based maintenance of GMDSS equipment",
    description:
      "How shore-based maintenance agreements work in practice, and proposals for common minimum content of such agreements.",
  },
  {
    category: "technical-papers-cyber-security",
    daysAgo: 190,
    name: "SECOM implementation guidance for shipowners",
    description:
      "The role of certificates in SECOM, how they are issued and renewed, what happens when a certificate expires, and a checklist for introducing SECOM-based services.",
  },
  {
    category: "technical-papers-cyber-security",
    daysAgo: 240,
    name: "Secure remote service of shipborne equipment",
    description:
      "Requirements for remote diagnostics and updates: sessions approved on board, end-to-end authentication and encryption, and logging of every session.",
  },
  {
    category: "technical-papers-cyber-security",
    daysAgo: 450,
    name: "Experience with IEC 63154 type approval",
    description:
      "Findings from the first type approval tests against IEC 63154, typical non-conformities and how to plan software releases around testing.",
    meeting: "Webinar: preparing for IEC 63154 type approval",
  },
  {
    category: "technical-papers-cyber-security",
    daysAgo: 630,
    name: "Applying IACS E26 and E27 to navigation and radio equipment",
    description:
      "How the unified requirements on cyber resilience of ships and of on-board systems apply to navigation and radio equipment supplied by members.",
  },
  {
    category: "technical-papers-cyber-security",
    daysAgo: 900,
    name: "Threat model for an integrated bridge system",
    description:
      "A reference threat model for an integrated bridge system, identifying assets, interfaces, threat actors and the controls expected from IEC 63154.",
  },
];

type StandardDoc = {
  name: string;
  number: string;
  organization: "IEC" | "ISO" | "ITU" | "IMO" | "IALA";
  reference: string;
  revision: string;
  version: string;
  meeting: string;
  /** Upcoming: months until the forecast publication. Published: days since publication. */
  offset: number;
  description: string;
};

const UPCOMING: StandardDoc[] = [
  {
    name: "Maritime navigation and radiocommunication equipment — Shipborne radar — Performance requirements",
    number: "IEC 62388",
    organization: "IEC",
    reference: "IEC 62388 ED3",
    revision: "Edition 3",
    version: "CDV",
    meeting: "IEC TC 80 WG 1",
    offset: 9,
    description:
      "Revision to cover solid-state transmitters, the presentation of S-100 information and alignment with bridge alert management.",
  },
  {
    name: "Shipborne equipment of the VHF Data Exchange System (VDES) — Performance requirements and methods of testing",
    number: "IEC new work item (VDES)",
    organization: "IEC",
    reference: "IEC TC 80 new work item — shipborne VDES",
    revision: "Edition 1",
    version: "CD",
    meeting: "IEC TC 80 WG 8A",
    offset: 20,
    description: "First test standard for shipborne VDES equipment, based on ITU-R M.2092.",
  },
  {
    name: "Automatic identification system (AIS) — Class A shipborne equipment",
    number: "IEC 61993-2",
    organization: "IEC",
    reference: "IEC 61993-2 ED4",
    revision: "Edition 4",
    version: "CD",
    meeting: "IEC TC 80 WG 8A",
    offset: 16,
    description:
      "Revision to align with the latest edition of ITU-R M.1371 and the cybersecurity requirements of IEC 63154.",
  },
  {
    name: "Electronic chart display and information system (ECDIS) — Operational and performance requirements",
    number: "IEC 61174",
    organization: "IEC",
    reference: "IEC 61174 ED5",
    revision: "Edition 5",
    version: "FDIS",
    meeting: "IEC TC 80 WG 7",
    offset: 5,
    description: "New edition for ECDIS using S-100 based products, including S-101 charts and the dual-fuel period.",
  },
  {
    name: "Cybersecurity — General requirements, methods of testing and required test results",
    number: "IEC 63154",
    organization: "IEC",
    reference: "IEC 63154 ED2",
    revision: "Edition 2",
    version: "CD",
    meeting: "IEC TC 80 WG 17",
    offset: 22,
    description: "Maintenance of the cybersecurity standard based on experience from type approval testing.",
  },
  {
    name: "Technical characteristics for a VHF data exchange system in the VHF maritime mobile band",
    number: "ITU-R M.2092",
    organization: "ITU",
    reference: "ITU-R M.2092-2",
    revision: "Revision 2",
    version: "Draft revision",
    meeting: "ITU-R WP 5B",
    offset: 11,
    description: "Revision to complete the satellite component and update the terrestrial component of VDES.",
  },
  {
    name: "Revised performance standards for integrated navigation systems (INS)",
    number: "MSC resolution (draft)",
    organization: "IMO",
    reference: "NCSR agenda item: revision of MSC.252(83)",
    revision: "Draft",
    version: "Correspondence group text",
    meeting: "IMO NCSR",
    offset: 14,
    description: "Revision of the INS performance standard to reflect S-100, alert management and resilient PNT.",
  },
  {
    name: "Ships and marine technology — Ship's bridge layout and associated equipment",
    number: "ISO 8468",
    organization: "ISO",
    reference: "ISO 8468 ED4",
    revision: "Edition 4",
    version: "DIS",
    meeting: "ISO TC 8 SC 6",
    offset: 8,
    description:
      "Revision of the bridge layout standard to cover workstations for alert management and remote monitoring.",
  },
  {
    name: "IALA Guideline on VDES shore infrastructure",
    number: "IALA Guideline (draft)",
    organization: "IALA",
    reference: "IALA ENG committee work item",
    revision: "Edition 1",
    version: "Draft",
    meeting: "IALA ENG Committee",
    offset: 7,
    description: "Guidance for authorities planning VDES shore stations and their integration with AIS networks.",
  },
  {
    name: "Digital interfaces — Multiple talkers and multiple listeners — Ethernet interconnection — Safety and security",
    number: "IEC 61162-460",
    organization: "IEC",
    reference: "IEC 61162-460 ED3",
    revision: "Edition 3",
    version: "CD",
    meeting: "IEC TC 80 WG 6",
    offset: 18,
    description:
      "Revision of the requirements for secure gateways between navigation networks and other networks on board.",
  },
];

const PUBLISHED: StandardDoc[] = [
  {
    name: "Bridge alert management — Operational and performance requirements",
    number: "IEC 62923-1",
    organization: "IEC",
    reference: "IEC 62923-1 ED2",
    revision: "Edition 2",
    version: "IS",
    meeting: "IEC TC 80 WG 15",
    offset: 60,
    description: "Second edition with clarified alert priorities and categories and improved test methods.",
  },
  {
    name: "Digital interfaces — Single talker and multiple listeners",
    number: "IEC 61162-1",
    organization: "IEC",
    reference: "IEC 61162-1 ED6",
    revision: "Edition 6",
    version: "IS",
    meeting: "IEC TC 80 WG 6",
    offset: 140,
    description: "New sentences for resilient PNT status and alert management, and deprecation of obsolete sentences.",
  },
  {
    name: "S-421 route plan based on S-100",
    number: "IEC 63173-1",
    organization: "IEC",
    reference: "IEC 63173-1 AMD1",
    revision: "Amendment 1",
    version: "IS",
    meeting: "IEC TC 80 WG 17",
    offset: 210,
    description: "Amendment aligning S-421 with the latest S-100 edition and clarifying route status and schedules.",
  },
  {
    name: "Secure communication between ship and shore (SECOM)",
    number: "IEC 63173-2",
    organization: "IEC",
    reference: "IEC 63173-2 AMD1",
    revision: "Amendment 1",
    version: "IS",
    meeting: "IEC TC 80 WG 17",
    offset: 320,
    description: "Amendment adding service discovery and clarifying certificate revocation checks.",
  },
  {
    name: "General requirements — Methods of testing and required test results",
    number: "IEC 60945",
    organization: "IEC",
    reference: "IEC 60945 ED5",
    revision: "Edition 5",
    version: "IS",
    meeting: "IEC TC 80 WG 2",
    offset: 400,
    description: "New edition of the environmental and EMC test standard for shipborne equipment.",
  },
  {
    name: "Technical characteristics for an automatic identification system using TDMA in the VHF maritime mobile band",
    number: "ITU-R M.1371",
    organization: "ITU",
    reference: "ITU-R M.1371-6",
    revision: "Revision 6",
    version: "In force",
    meeting: "ITU-R WP 5B",
    offset: 250,
    description: "Revision with updated message definitions and clarifications for AIS search and rescue transmitters.",
  },
  {
    name: "Amendments to SOLAS Chapter IV (modernisation of the GMDSS)",
    number: "MSC resolution",
    organization: "IMO",
    reference: "SOLAS Chapter IV, as amended",
    revision: "Amendment",
    version: "In force",
    meeting: "IMO MSC",
    offset: 480,
    description: "Amendments restructuring the radiocommunications chapter around functional requirements.",
  },
  {
    name: "Guidelines on maritime cyber risk management — revision",
    number: "MSC-FAL circular",
    organization: "IMO",
    reference: "MSC-FAL.1/Circ.3, revised",
    revision: "Rev. 3",
    version: "In force",
    meeting: "IMO MSC / FAL",
    offset: 300,
    description:
      "Revised high-level guidelines on cyber risk management, referring to industry standards for implementation.",
  },
  {
    name: "Ships and marine technology — Marine electromagnetic compatibility",
    number: "ISO 13297",
    organization: "ISO",
    reference: "ISO 13297 AMD1",
    revision: "Amendment 1",
    version: "IS",
    meeting: "ISO TC 8",
    offset: 180,
    description: "Amendment addressing interference from LED lighting and power electronics on small craft.",
  },
  {
    name: "IALA Recommendation on the provision of maritime services using VDES",
    number: "IALA Recommendation",
    organization: "IALA",
    reference: "IALA Council approval",
    revision: "Edition 1",
    version: "Approved",
    meeting: "IALA Council",
    offset: 95,
    description: "Recommendation to authorities on the introduction of services using VDES.",
  },
];

const MAGAZINE_STORIES: Record<string, string> = {
  spring0: "Route exchange and just-in-time arrival: how ports could cut emissions at anchor",
  autumn0: "Two years of IACS E26 and E27 — an interview with the chair of the cyber security working group",
  spring1: "The modernised GMDSS: what changes for service companies",
  autumn1: "Inside the Annual Technical Workshop: six ECDIS makes, one route",
  spring2: "Low-earth-orbit satellites and safety communications",
  autumn2: "Seventy-five years of a family radio service company",
  spring3: "GNSS interference: the view from the bridge",
  autumn3: "Electro-technical officers: the first year at sea",
};

const ABBREVIATIONS = [
  "- AIS — Automatic identification system",
  "- BAM — Bridge alert management",
  "- ECDIS — Electronic chart display and information system",
  "- GMDSS — Global maritime distress and safety system",
  "- GNSS — Global navigation satellite system",
  "- IEC — International Electrotechnical Commission",
  "- IMO — International Maritime Organization",
  "- INS — Integrated navigation system",
  "- ITU — International Telecommunication Union",
  "- PNT — Position, navigation and timing",
  "- SECOM — Secure communication between ship and shore (IEC 63173-2)",
  "- VDES — VHF data exchange system",
];

function mastheadPdf(kind: "policy" | "bulletin" | "paper", name: string, description: string): string[] {
  if (kind === "policy") {
    return [
      "## Purpose",
      description,
      "## Policy",
      `Masthead members agree to apply the principles of this policy — ${name.replace(/^Policy on /, "").toLowerCase()} — in their own products and services, and to promote them in the international organisations in which the association takes part, in particular IMO, IEC, ITU and IALA.`,
      "Where this policy refers to international standards, the latest published edition applies unless stated otherwise. Members are encouraged to take part in the maintenance of those standards through their national committees.",
      "## Review",
      "This policy was approved by the Board of Directors after consultation of all members. It is reviewed at least every three years, or earlier if regulations change. Comments may be sent to the secretariat at any time.",
    ];
  }
  if (kind === "bulletin") {
    return [
      "## Background",
      description,
      "## Recommendations",
      "Members are advised to review their products, documentation and service procedures against the points in this bulletin and to inform customers where action is needed.",
      "Service engineers should record in the service report any observation related to this bulletin, including the equipment type, software version and the conditions in which the issue was observed.",
      "## Status",
      "This bulletin is issued for information by the responsible Masthead working group. It does not replace manufacturers' instructions or the requirements of flag States and classification societies.",
    ];
  }
  return [
    "## Abstract",
    description,
    "## Introduction",
    "This paper was prepared by a Masthead working group with contributions from experts of member companies. It reflects the state of technology and regulation at the date of publication.",
    "The analysis is based on information provided by members, on published standards and, where indicated, on tests carried out during Masthead events. Commercially sensitive information has been removed.",
    "## Findings",
    "The working group found broad agreement among members on the main issues, while some questions remain open and are identified as such. Where the paper proposes changes to international standards, these will be submitted through the appropriate liaison.",
    "## Conclusions",
    "Members are invited to use the conclusions of this paper in their product development and in their contacts with administrations and classification societies. Comments are welcome and will be considered in the next revision.",
    "## Annex A — Abbreviations",
    ...ABBREVIATIONS,
  ];
}

/** All papers with dates computed from `now`. */
export function buildPapers(now: Date): PaperSeed[] {
  const day = (offset: number) => isoDate(addDays(now, offset));
  const papers: PaperSeed[] = [];

  POLICIES.forEach((p, i) => {
    // A policy at Rev. N has had N - 1 earlier revisions; the demo keeps up to two of them.
    const current = Number((p.revision ?? "Rev. 1").replace(/\D+/g, "")) || 1;
    const revisions = Array.from({ length: Math.min(2, current - 1) }, (_, k) => {
      const n = current - 1 - k;
      const replacedDaysAgo = p.daysAgo + k * 540;
      return {
        revision: `Rev. ${n}`,
        version: "Approved",
        date: day(-(replacedDaysAgo + 540)),
        replacedDaysAgo,
        pdf: [
          `## Revision ${n}`,
          `This is revision ${n} of the policy, superseded by revision ${n + 1}. It is kept for reference.`,
          ...mastheadPdf("policy", p.name, p.description).slice(0, 4),
        ],
      };
    });
    papers.push({
      revisions,
      category: "policies",
      name: p.name,
      number: `POL-${String(i + 1).padStart(2, "0")}`,
      organization: "Masthead",
      reference: `Masthead/BOARD/${addDays(now, -p.daysAgo).getUTCFullYear()}/${String(10 + i * 3).padStart(3, "0")}`,
      revision: p.revision ?? "Rev. 1",
      version: "Approved",
      date: day(-p.daysAgo),
      publication_date: day(-p.daysAgo + 7),
      forecast_date: null,
      meeting: "Board of Directors",
      description: p.description,
      pdf: mastheadPdf("policy", p.name, p.description),
    });
  });

  // Bulletins are numbered per year of publication, in date order.
  const perYear = new Map<number, number>();
  for (const b of [...BULLETINS].sort((a, c) => c.daysAgo - a.daysAgo)) {
    const date = addDays(now, -b.daysAgo);
    const year = date.getUTCFullYear();
    const seq = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, seq);
    const group = b.category.replace("technical-bulletins-", "");
    const wg = group === "navigation" ? "NAV" : group === "radio" ? "RAD" : "SVC";
    papers.push({
      category: b.category,
      name: b.name,
      number: `TB-${year}-${String(seq).padStart(2, "0")}`,
      organization: "Masthead",
      reference: `Masthead/WG-${wg}/${year}/${String(seq * 7).padStart(3, "0")}`,
      revision: "Rev. 0",
      version: "1.0",
      date: isoDate(date),
      publication_date: isoDate(date),
      forecast_date: null,
      meeting: `Working group ${group === "navigation" ? "Navigation" : group === "radio" ? "Radiocommunications" : "Service and installation"}`,
      description: b.description,
      pdf: mastheadPdf("bulletin", b.name, b.description),
    });
  }

  [...TECH_PAPERS]
    .sort((a, c) => c.daysAgo - a.daysAgo)
    .forEach((t, i) => {
      const date = addDays(now, -t.daysAgo);
      const group = t.category.replace("technical-papers-", "");
      papers.push({
        category: t.category,
        name: t.name,
        number: `TP-${101 + i}`,
        organization: "Masthead",
        reference: `Masthead/TP/${101 + i}`,
        revision: i % 4 === 0 ? "Rev. 1" : "Rev. 0",
        version: i % 4 === 0 ? "1.1" : "1.0",
        date: isoDate(date),
        publication_date: isoDate(addDays(date, 10)),
        forecast_date: null,
        meeting:
          t.meeting ??
          `Working group ${group === "cyber-security" ? "Cyber security" : group.charAt(0).toUpperCase() + group.slice(1)}`,
        description: t.description,
        pdf: mastheadPdf("paper", t.name, t.description),
      });
    });

  UPCOMING.forEach((s, i) => {
    const forecast = addDays(monthStart(now, s.offset), 14);
    const stage = addDays(now, -(20 + i * 17));
    papers.push({
      category: "upcoming-standards",
      name: s.name,
      number: s.number,
      organization: s.organization,
      reference: s.reference,
      revision: s.revision,
      version: s.version,
      date: isoDate(stage),
      publication_date: null,
      forecast_date: isoDate(forecast),
      meeting: s.meeting,
      description: s.description,
      pdf: [
        "## Scope",
        s.description,
        "## Status",
        `Current stage: ${s.version} (${longDate(stage)}). Forecast publication: ${longDate(forecast)}. Responsible body: ${s.meeting}.`,
        "## Relevance for members",
        "Manufacturers should follow the drafts closely, as new editions of test standards usually become the basis for type approval within two to three years of publication. Comments can be submitted through the national committees; Masthead coordinates the views of its members where useful.",
        "This summary sheet is prepared by Masthead for its members and does not reproduce the text of the standard.",
      ],
    });
  });

  PUBLISHED.forEach((s) => {
    const published = addDays(now, -s.offset);
    papers.push({
      category: "recently-published-standards",
      name: s.name,
      number: s.number,
      organization: s.organization,
      reference: s.reference,
      revision: s.revision,
      version: s.version,
      date: isoDate(published),
      publication_date: isoDate(published),
      forecast_date: null,
      meeting: s.meeting,
      description: s.description,
      pdf: [
        "## Summary",
        s.description,
        "## Publication",
        `Published by ${s.organization} on ${longDate(published)} (${s.reference}, ${s.revision}). Responsible body: ${s.meeting}.`,
        "## What changes for members",
        "Manufacturers should check whether existing type approvals are affected and plan any necessary retesting. Service companies should check whether installation or survey procedures refer to the previous edition.",
        "This summary sheet is prepared by Masthead for its members. The standard itself must be obtained from the publishing organisation.",
      ],
    });
  });

  // The eight most recent editions of Spotlight: spring (20 March) and autumn (25 September).
  const editions: { date: Date; season: "Spring" | "Autumn" }[] = [];
  for (let year = now.getUTCFullYear(); editions.length < 8; year--) {
    for (const [season, month, dayOfMonth] of [
      ["Autumn", 8, 25],
      ["Spring", 2, 20],
    ] as const) {
      const date = new Date(Date.UTC(year, month, dayOfMonth));
      if (date.getTime() < now.getTime() && editions.length < 8) editions.push({ date, season });
    }
  }
  editions.forEach((e, i) => {
    const year = e.date.getUTCFullYear();
    const issue = (year - 2004) * 2 + (e.season === "Autumn" ? 2 : 1);
    const cover = MAGAZINE_STORIES[`${e.season.toLowerCase()}${Math.floor(i / 2)}`];
    const description = `Cover story: ${cover}. Also in this edition: news from members, the standards watch and reports from Masthead events.`;
    papers.push({
      category: "spotlight-magazine",
      name: `Spotlight — ${e.season} ${year} edition`,
      number: `Issue ${issue}`,
      organization: "Masthead",
      reference: `Spotlight, issue ${issue}`,
      revision: null,
      version: null,
      date: isoDate(e.date),
      publication_date: isoDate(e.date),
      forecast_date: null,
      meeting: null,
      description,
      pdf: [
        "## In this edition",
        `Cover story: ${cover}.`,
        "## From the President",
        "Welcome to this edition of Spotlight. Our members have had a busy season: new products, new standards and new colleagues. As always, the magazine is written largely by members for members, and I thank everyone who contributed.",
        "## News from members",
        "New contracts, new offices and new appointments from across the membership, together with the companies that have joined the association since the last edition.",
        "## Standards watch",
        "A summary of the IEC, ISO, ITU, IMO and IALA documents published or reaching an important stage in the last six months.",
        "## Events",
        "Reports from the Annual Conference or the Annual Technical Workshop, and the calendar of webinars and working group meetings for the coming months.",
      ],
    });
  });

  // Two working documents in each working group's folder (issue 36).
  const drafts: [string, string, string, string][] = [
    [
      "secom-documents",
      "SECOM",
      "Protocol profile for ship-shore exchange, draft 3",
      "The third draft of the group's profile of IEC 63173-2, with the changes agreed at the last meeting.",
    ],
    [
      "secom-documents",
      "SECOM",
      "Interoperability trial report, autumn",
      "Which services exchanged data during the trial, and the issues found.",
    ],
    [
      "s-421-documents",
      "S421",
      "S-421 product specification, comments resolution",
      "Every comment received on the draft specification, with the editors' proposed answer.",
    ],
    [
      "s-421-documents",
      "S421",
      "Route exchange test data set, description",
      "How the test routes were built and what each one exercises.",
    ],
    [
      "cyber-security-documents",
      "CYB",
      "Questions on IEC 61162-460 network boundaries",
      "Questions received from test houses, grouped by clause.",
    ],
    [
      "cyber-security-documents",
      "CYB",
      "Draft answers for type approval",
      "The group's proposed answers to the test houses' questions, for the Board.",
    ],
  ];
  drafts.forEach(([category, code, name, description], i) => {
    papers.push({
      category,
      name,
      number: `WG-${code}-${String((i % 2) + 1).padStart(2, "0")}`,
      organization: "Masthead",
      reference: null,
      revision: "Draft",
      version: null,
      date: day(-(10 + i * 6)),
      publication_date: null,
      forecast_date: null,
      meeting: null,
      description,
      pdf: mastheadPdf("paper", name, description),
    });
  });

  return papers;
}
