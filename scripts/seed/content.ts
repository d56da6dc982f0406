/**
 * Texts of the demo site: settings and CMS pages. The association, its people
 * and its member companies are fictional; the standards and international
 * bodies they refer to are real.
 *
 * Page HTML uses only p, h2, h3, ul, ol, li, strong, em, a and blockquote.
 */

export const SITE_SETTINGS: Record<string, string> = {
  "site.name": "Masthead",
  "site.tagline": "International association of marine electronics companies",
  "site.email": "secretariat@masthead.example",
  "site.phone": "+44 20 7946 0321",
  "site.address": "Mariner House, 1 Harbour Street, Southampton SO14 2AQ, United Kingdom",
  "site.twitter": "https://twitter.com/masthead_assoc",
  "site.youtube": "https://www.youtube.com/@masthead-association",
  "site.linkedin": "https://www.linkedin.com/company/masthead-association",
};

export type PageContent = { url: string; title: string; content: string };

const html = (...parts: string[]) => parts.join("\n");

export const PAGES: PageContent[] = [
  {
    url: "/home",
    title: "Welcome to Masthead",
    content: html(
      "<p>Masthead is the international association of marine electronics companies. Since 1929 our members — manufacturers of radio and navigation equipment, service and installation companies, classification societies, training institutes and system integrators — have worked together so that ships can navigate and communicate safely, efficiently and securely.</p>",
      '<p>We represent the industry at the <strong>International Maritime Organization</strong>, the International Electrotechnical Commission, the International Telecommunication Union and IALA, and we turn the standards agreed there into practical guidance for the people who design, install and maintain equipment on board. Browse our latest news, join us at the <a href="/conference">Annual Conference</a> or the <a href="/workshop">Annual Technical Workshop</a>, or find out how your company can <a href="/members-join">become a member</a>.</p>',
    ),
  },
  {
    url: "/purpose-objectives",
    title: "Purpose & Objectives",
    content: html(
      "<p>Masthead brings together the companies that design, build, install and service the electronic systems on which modern shipping depends: radars and ECDIS, AIS and VDES, GMDSS radio, satellite communications, voyage data recorders, integrated bridge systems and the networks that connect them.</p>",
      "<h2>Our purpose</h2>",
      "<p>Our purpose is to promote the safety of life at sea, the protection of the marine environment and the efficiency of shipping through the sound application of electronic technology. We do this by giving the marine electronics industry one informed and independent voice in the international bodies that set the rules for equipment carried on board.</p>",
      "<h2>Objectives</h2>",
      "<ul><li>To contribute the practical experience of manufacturers and service companies to the work of IMO, IEC, ITU, ISO, IALA and IHO.</li><li>To encourage performance standards and test standards that are clear, technology-neutral and achievable at reasonable cost.</li><li>To promote high standards of installation, maintenance and servicing of shipborne equipment worldwide.</li><li>To keep members informed of regulatory developments early enough to plan product development.</li><li>To provide neutral technical services to the industry, such as the register of manufacturer identifiers and the S-421 and RTZ schema repositories.</li><li>To support the training of seafarers and service engineers in the use and care of electronic equipment.</li></ul>",
      "<h2>How we work</h2>",
      "<p>Most of our work is done by volunteers from member companies in working groups on navigation, radiocommunications, cyber security, and service and installation. The working groups prepare position papers, comment on draft standards and produce technical bulletins. The Board of Directors sets priorities, and a small secretariat in London coordinates the work and represents the association at meetings.</p>",
      "<p>Masthead is a non-profit association. It does not endorse products, does not certify equipment and takes no part in commercial arrangements between members. Competition law guidance is read at the opening of every meeting.</p>",
    ),
  },
  {
    url: "/structure-people",
    title: "Structure & People",
    content: html(
      "<p>Masthead is governed by its General Assembly of members, which meets once a year during the Annual Conference. The General Assembly elects the President and the Board of Directors, approves the accounts and the budget, and decides on changes to the statutes.</p>",
      "<h2>Board of Directors</h2>",
      "<ul><li><strong>President:</strong> Dr Ingrid Halvorsen, Nordhavn Marine Electronics AS, Norway</li><li><strong>Vice-President:</strong> Captain Samuel Okafor, Atlantic Bridge Systems Ltd, United Kingdom</li><li><strong>Treasurer:</strong> Marco Bellini, Tirreno Navigazione Elettronica S.r.l., Italy</li><li>Yuki Tanaka, Sato Maritime Instruments K.K., Japan</li><li>Pieter van der Berg, Zeeland Radio Services B.V., Netherlands</li><li>Hye-jin Park, Hanbit Marine Systems Co., Ltd, Republic of Korea</li><li>Rafael Ortega, Cantábrico Electrónica Naval S.L., Spain</li></ul>",
      "<h2>Secretariat</h2>",
      "<ul><li><strong>Secretary General:</strong> Eleanor Whitcombe</li><li><strong>Technical Director:</strong> Dr Tomasz Nowicki</li><li><strong>Events and Membership Manager:</strong> Charlotte Dubois</li><li><strong>Communications Officer:</strong> Aaron Mensah</li></ul>",
      "<h2>Working groups</h2>",
      "<p>Four standing working groups report to the Board:</p>",
      "<ul><li><strong>Navigation</strong> — radar, ECDIS, INS, AIS, route exchange (S-421) and bridge alert management. Chair: Lars Eriksson.</li><li><strong>Radiocommunications</strong> — GMDSS modernisation, VDES, satellite services, spectrum and ITU-R matters. Chair: Dr Amelia Grant.</li><li><strong>Cyber security</strong> — IEC 63154, SECOM, software maintenance and IACS unified requirements E26 and E27. Chair: Jonas Becker.</li><li><strong>Service and installation</strong> — the Service Code of Practice, engineer qualifications and annual testing. Chair: Captain Rahul Mehta.</li></ul>",
      "<p>Task groups are created for specific pieces of work, such as the maintenance of the RTZ schemas or preparation for a World Radiocommunication Conference, and are closed when the work is done.</p>",
    ),
  },
  {
    url: "/position-papers",
    title: "Position Papers",
    content: html(
      "<p>Masthead position papers set out the considered view of the marine electronics industry on regulatory questions. They are drafted by a working group, reviewed by all members and approved by the Board before they are submitted to IMO or presented at meetings of other organisations.</p>",
      "<h2>Current position papers</h2>",
      "<ul><li><strong>Software maintenance of shipborne navigation and communication equipment</strong> — calls for a common approach to remote and on-board software updates, covering authentication, records and the role of the crew.</li><li><strong>Cyber resilience of ships</strong> — supports the application of IEC 63154 to navigation and radiocommunication equipment and asks for alignment between type approval and the IACS unified requirements.</li><li><strong>VHF Data Exchange System (VDES)</strong> — supports carriage of VDES on a voluntary basis first, with performance standards developed before any mandatory carriage is considered.</li><li><strong>Modernisation of the GMDSS</strong> — sets out the transition periods the industry needs to redesign, type approve and install new equipment.</li><li><strong>Harmonised presentation of navigation information</strong> — encourages the use of S-100 based products and a common approach to bridge alert management.</li></ul>",
      '<p>Full texts are available to members in the <a href="/dashboard/policies">document library</a>. Public versions of submissions to IMO are published in the IMODOCS system under the association\'s consultative status.</p>',
      "<blockquote>Good regulation is written with the people who have to build, install and maintain the equipment. That is the contribution our members make.</blockquote>",
    ),
  },
  {
    url: "/collaboration",
    title: "Collaboration",
    content: html(
      "<p>Masthead works with the international organisations that shape maritime navigation and communication, and with other associations representing shipowners, seafarers, ports and training institutions.</p>",
      "<h2>International organisations</h2>",
      "<ul><li><strong>International Maritime Organization (IMO)</strong> — Masthead holds consultative status and attends the Maritime Safety Committee and the Sub-Committee on Navigation, Communications and Search and Rescue (NCSR).</li><li><strong>International Electrotechnical Commission (IEC)</strong> — members of the association take part in the work of IEC Technical Committee 80 on maritime navigation and radiocommunication equipment and systems.</li><li><strong>International Telecommunication Union (ITU)</strong> — Masthead contributes to ITU-R Working Party 5B on maritime mobile services, including preparation for World Radiocommunication Conferences.</li><li><strong>IALA</strong> — we are an industrial member of IALA and contribute to its committees on e-navigation and VDES.</li><li><strong>International Hydrographic Organization (IHO)</strong> — we follow the development of the S-100 framework and contribute the experience of ECDIS manufacturers.</li><li><strong>ISO</strong> — selected members follow ISO TC 8 on ships and marine technology.</li></ul>",
      "<h2>Industry partners</h2>",
      "<p>We hold regular meetings with associations of shipowners, classification societies and maritime training providers to share information on equipment issues seen in service, and we co-organise webinars and expert meetings where our interests overlap.</p>",
      '<p>Organisations interested in working with Masthead are welcome to contact the <a href="/contact">secretariat</a>.</p>',
    ),
  },
  {
    url: "/history",
    title: "History",
    content: html(
      "<p>Masthead was founded in London in 1929 by seven companies that supplied and operated wireless telegraphy equipment on merchant ships. Radio was then a young technology at sea, and the founders saw the need for a common voice when governments were negotiating the first international radio regulations for ships.</p>",
      "<h2>From wireless telegraphy to e-navigation</h2>",
      "<ul><li><strong>1929</strong> — founding meeting of the association in London with members from five countries.</li><li><strong>1948</strong> — first contribution to the international conference on the Safety of Life at Sea.</li><li><strong>1961</strong> — the association is granted consultative status by the newly formed Inter-Governmental Maritime Consultative Organization, later IMO.</li><li><strong>1979</strong> — navigation equipment manufacturers join in large numbers as radar and satellite navigation become standard.</li><li><strong>1992</strong> — active part in the introduction of the Global Maritime Distress and Safety System.</li><li><strong>2002</strong> — guidance on the installation of AIS ahead of the first carriage requirements.</li><li><strong>2012</strong> — the association adopts the name Masthead and opens membership to software and service companies.</li><li><strong>2018</strong> — launch of the cyber security working group.</li><li><strong>2021</strong> — Masthead members contribute to the publication of S-421 and SECOM as IEC 63173-1 and IEC 63173-2.</li></ul>",
      "<p>Today the association has members on every continent, from global manufacturers to small local service companies. The founders would not recognise the equipment, but they would recognise the purpose: working together so that ships can navigate and communicate safely.</p>",
    ),
  },
  {
    url: "/contact",
    title: "Contact",
    content: html(
      "<p>The Masthead secretariat is the first point of contact for members, partner organisations and the press.</p>",
      "<h2>Secretariat</h2>",
      "<p><strong>Masthead</strong>, 2 Riverside Walk, Suite 4, London SE1 9AA, United Kingdom</p>",
      '<ul><li>Email: <a href="mailto:secretariat@masthead.example">secretariat@masthead.example</a></li><li>Telephone: +44 20 7946 0321</li><li>Office hours: Monday to Friday, 09:00–17:00 UK time</li></ul>',
      "<h2>Specific enquiries</h2>",
      '<ul><li>Membership and events: <a href="mailto:events@masthead.example">events@masthead.example</a></li><li>Manufacturer ID register: <a href="mailto:ids@masthead.example">ids@masthead.example</a></li><li>Press and communications: <a href="mailto:press@masthead.example">press@masthead.example</a></li></ul>',
      "<p>You can also write to us with the <em>Send us a message</em> form below; the secretariat answers within two working days. Companies that wish to join the association can use the <em>Join the community</em> form at the bottom of every page.</p>",
    ),
  },
  {
    url: "/honorary-membership",
    title: "Honorary Membership",
    content: html(
      "<p>Honorary membership is the highest recognition the association can give. It is awarded by the General Assembly, on the proposal of the Board, to individuals who have made an outstanding and lasting contribution to the work of Masthead or to the safety of navigation and communication at sea.</p>",
      "<h2>Criteria</h2>",
      "<ul><li>Long and active service to the association, typically over more than fifteen years.</li><li>A significant contribution to international standards or regulations affecting marine electronics.</li><li>Recognition by peers across the industry, beyond the nominee's own company.</li></ul>",
      "<h2>Honorary members</h2>",
      "<ul><li><strong>Captain Harald Lindqvist</strong> (2024) — for twenty years as chair of the navigation working group and his work on integrated navigation systems.</li><li><strong>Margaret O'Connell</strong> (2022) — Secretary General from 2004 to 2020.</li><li><strong>Dr Kenji Morimoto</strong> (2019) — for his contribution to the AIS and VDES standards at ITU and IEC.</li><li><strong>Jean-Luc Marchand</strong> (2016) — for his leadership during the introduction of ECDIS carriage requirements.</li><li><strong>Alan Pritchard</strong> (2011) — for his work on the first Service Code of Practice.</li></ul>",
      "<p>Nominations may be sent to the Secretary General by any full member before the end of February each year.</p>",
    ),
  },
  {
    url: "/tributes",
    title: "Tributes",
    content: html(
      "<p>This page remembers colleagues who served the association and the marine electronics industry and who are no longer with us. Members who wish to add a few words of their own are welcome to write to the secretariat.</p>",
      "<h2>Captain Harald Lindqvist</h2>",
      "<p>Harald went to sea as a radio officer before becoming a master mariner and, later, head of product management at a Scandinavian navigation equipment maker. For twenty years he chaired our navigation working group with patience, humour and an unrivalled knowledge of what happens on a bridge at three in the morning. He was made an honorary member in 2024 and died peacefully at home, aged 79, surrounded by his family.</p>",
      "<h2>Dr Kenji Morimoto (1951–2023)</h2>",
      "<p>Kenji was one of the engineers behind the AIS technical characteristics and a tireless contributor to ITU-R and IEC meetings for three decades. Colleagues remember his careful drafting, his generosity with younger engineers and the excellent dinners he organised in every host city.</p>",
      "<h2>Alan Pritchard (1939–2021)</h2>",
      "<p>Alan founded a radio service company in Southampton and led the group that wrote the first Service Code of Practice. Many of the principles in today's code — competence, traceability and honest reporting — were his.</p>",
      "<blockquote>They gave their time to the association so that others could go to sea more safely. We are grateful.</blockquote>",
    ),
  },
  {
    url: "/feedback-forum",
    title: "User Feedback Forum",
    content: html(
      "<p>The User Feedback Forum gives seafarers, pilots, shipowners and service engineers a direct channel to tell equipment manufacturers what works well on board and what does not. Feedback is shared, anonymously, with the relevant working group and with member companies.</p>",
      "<h2>What we want to hear about</h2>",
      "<ul><li>Alarms and alerts that are unclear, too frequent or hard to acknowledge.</li><li>User interfaces that differ between makers in ways that cause confusion.</li><li>Problems that appear after software updates or when equipment from different makers is connected.</li><li>Suggestions for training material or documentation.</li></ul>",
      "<h2>How it works</h2>",
      "<ol><li>Send your observation to the secretariat using the <em>Send us a message</em> form below or by email, with as much detail as you can: equipment type, the situation, and what you expected to happen.</li><li>The secretariat removes names of people, ships and companies before sharing the report.</li><li>The working group reviews reports at each meeting and identifies common issues.</li><li>Where a pattern emerges, the association may publish a technical bulletin, propose a change to a standard or raise the matter at IMO.</li></ol>",
      "<p>The forum is not a channel for individual warranty claims or service requests; please contact the manufacturer or your service agent for those. Safety-critical defects should always be reported to the flag State as well.</p>",
    ),
  },
  {
    url: "/service-code-of-practice",
    title: "Service Code of Practice",
    content: html(
      "<p>The Masthead Service Code of Practice sets out the standards that member companies apply when they install, maintain, test and repair radio and electronic navigation equipment on ships. It gives shipowners, flag States and classification societies confidence that work carried out under the code is competent, documented and independent of commercial pressure.</p>",
      "<h2>Principles</h2>",
      "<ul><li><strong>Competence</strong> — work is carried out by engineers trained and authorised for the specific equipment, with training records kept up to date.</li><li><strong>Proper tools and information</strong> — service companies use calibrated test equipment and the manufacturer's current service documentation and software.</li><li><strong>Traceability</strong> — every job produces a written report listing the equipment, serial numbers, software versions, tests carried out, results and parts replaced.</li><li><strong>Honest reporting</strong> — defects are reported to the master and the company even when they cannot be repaired during the visit.</li><li><strong>Cyber hygiene</strong> — service laptops and removable media are checked before connection, and software is obtained only from authorised sources.</li></ul>",
      "<h2>Annual surveys and tests</h2>",
      "<p>The code includes checklists for the annual radio survey, the annual performance test of voyage data recorders and the annual testing of AIS, based on the relevant IMO guidelines, and guidance on shore-based maintenance agreements for GMDSS equipment.</p>",
      "<h2>Compliance</h2>",
      "<p>Service members confirm each year that they comply with the code. Complaints about work carried out under the code are investigated by the service and installation working group, which may recommend that the Board suspend a company's right to refer to the code.</p>",
    ),
  },
  {
    url: "/manufacturer-ids",
    title: "Manufacturer IDs",
    content: html(
      "<p>Masthead maintains a register of three-character manufacturer identifiers for the marine electronics industry. The identifiers let equipment and shore systems recognise the maker of a unit in data where no other identification is available.</p>",
      "<h2>Where the identifiers are used</h2>",
      "<ul><li>The vendor ID field of AIS static data reports (ITU-R M.1371 message 24, part B), transmitted by Class B AIS and other AIS stations.</li><li>Proprietary sentences and equipment identification in IEC 61162 interfaces, where a manufacturer mnemonic is required.</li><li>Identification of the maker of AIS aids to navigation, search and rescue transmitters and other AIS devices using MMSI formats of the 97x and 99x series.</li></ul>",
      "<h2>Applying for an identifier</h2>",
      '<ol><li>Check the register in the members area to make sure that your company does not already hold an identifier.</li><li>Send a request to <a href="mailto:ids@masthead.example">ids@masthead.example</a> with the company name, address, a contact person and up to three preferred codes.</li><li>The secretariat checks the codes against the register and reserved combinations and confirms the allocation within ten working days.</li></ol>',
      "<p>Identifiers are allocated free of charge to members and for a one-off administration fee to non-members. An identifier stays allocated to the company and is not transferred with a product line unless the register is updated.</p>",
    ),
  },
  {
    url: "/publications",
    title: "Publications",
    content: html(
      "<p>Masthead publishes guidance for the industry and for the people who use and maintain marine electronic equipment. Most publications are available to members in the document library; selected titles are free to the public.</p>",
      '<p>Every edition of the Spotlight magazine and our list of recently published standards are open to all in the <a href="/library">public document library</a>. Members find the complete library, with policies, technical bulletins and papers, in the <a href="/dashboard">members area</a>.</p>',
      "<h2>Series</h2>",
      "<ul><li><strong>Technical bulletins</strong> — short notes on specific equipment issues, test methods or regulatory changes, published by the working groups.</li><li><strong>Technical papers</strong> — in-depth studies, such as comparisons of test methods or analyses of interference cases.</li><li><strong>Policies and position papers</strong> — the association's agreed positions on regulatory matters.</li><li><strong>Spotlight</strong> — our magazine, published twice a year, with news from members, interviews and features on new technology.</li><li><strong>Standards watch</strong> — lists of upcoming and recently published IEC, ISO, ITU and IMO standards relevant to members.</li></ul>",
      "<h2>Guides for seafarers</h2>",
      "<p>Our pocket guides on GMDSS equipment, ECDIS alarms and AIS are used by training institutions in many countries. Training providers may reproduce them free of charge with acknowledgement.</p>",
      '<p>To order printed copies or to request permission to reproduce a publication, please <a href="/contact">contact the secretariat</a>.</p>',
    ),
  },
  {
    url: "/rtz-xml-schemas",
    title: "RTZ XML Schemas",
    content: html(
      "<p>RTZ is the XML format for exchanging route plans between ECDIS and other navigation systems, defined in IEC 61174. It lets a route planned in one system be loaded into another — from one ECDIS to another on the same bridge, from a shore-based planning service to the ship, or from the ship to a port or a vessel traffic service.</p>",
      "<h2>Schema repository</h2>",
      "<p>On behalf of its members, Masthead hosts the reference copies of the RTZ XML schemas and extension schemas so that software developers can validate route files against a stable, versioned source:</p>",
      "<ul><li><strong>RTZ 1.0</strong> — the original schema published with IEC 61174 edition 4.</li><li><strong>RTZ 1.1</strong> — adds extensions used in route exchange test beds.</li><li><strong>RTZ 1.2</strong> — adds schedules and manual waypoints used by route optimisation services.</li></ul>",
      "<h2>Extensions</h2>",
      '<p>Manufacturers may define extensions for their own data inside the <em>extensions</em> element. To avoid conflicts, extension names should use the manufacturer identifier from the <a href="/manufacturer-ids">Manufacturer ID register</a>. Masthead publishes the list of registered extensions so that other systems can safely ignore or interpret them.</p>',
      "<h2>Relationship with S-421</h2>",
      '<p>RTZ remains widely used, while new systems increasingly support <a href="/s-421">S-421</a>, the S-100 based route plan product. Our navigation working group publishes mapping guidance between the two formats.</p>',
    ),
  },
  {
    url: "/s-421",
    title: "S-421 Route Exchange",
    content: html(
      "<p>S-421 is the product specification for route plans based on the IHO S-100 framework. It was published as IEC 63173-1 and provides a common, machine-readable way to exchange routes between ships and shore services, building on the experience of the RTZ format.</p>",
      "<h2>Why S-421 matters</h2>",
      '<ul><li>Route plans can be shared with pilots, vessel traffic services and port authorities in a standard format.</li><li>Shore-based services can suggest route or speed changes to improve safety and efficiency, for example for just-in-time arrival.</li><li>S-421 data can be signed and exchanged securely using <a href="/secom">SECOM</a>.</li></ul>',
      "<h2>Contents of a route</h2>",
      "<p>An S-421 route contains route information, waypoints and legs with their geometry and limits, optional schedules with planned times and speeds, and action points. Each route has a unique identifier and a status, such as planned, optimised or monitored, so that systems know which version is in use.</p>",
      "<h2>Masthead support</h2>",
      "<p>Masthead maintains a registry of S-421 test datasets for members, runs interoperability sessions during the Annual Technical Workshop and publishes implementation notes. Developers with questions about S-421 can contact the navigation working group through the secretariat.</p>",
    ),
  },
  {
    url: "/standards-guide",
    title: "Standards Guide",
    content: html(
      "<p>Shipborne navigation and radiocommunication equipment must meet a layered set of international requirements: IMO conventions and performance standards set what the equipment must do, and IEC, ITU and ISO standards define how compliance is tested. This guide gives an overview for newcomers to the industry.</p>",
      "<h2>IMO</h2>",
      "<p>SOLAS Chapters IV (radiocommunications) and V (safety of navigation) set the carriage requirements. IMO performance standards, adopted as resolutions of the Maritime Safety Committee, describe the minimum performance of each type of equipment, such as radar, ECDIS, AIS, VDR and GMDSS radio installations.</p>",
      "<h2>IEC Technical Committee 80</h2>",
      "<ul><li><strong>IEC 60945</strong> — general requirements, methods of testing and required test results for environmental and EMC conditions.</li><li><strong>IEC 61162 series</strong> — digital interfaces, from serial sentences to the lightweight Ethernet of IEC 61162-450.</li><li><strong>IEC 61174</strong> — ECDIS; <strong>IEC 62388</strong> — radar; <strong>IEC 61993-2</strong> — Class A AIS.</li><li><strong>IEC 62923</strong> — bridge alert management.</li><li><strong>IEC 63154</strong> — cybersecurity of navigation and radiocommunication equipment.</li><li><strong>IEC 63173-1 and -2</strong> — S-421 route plans and SECOM.</li></ul>",
      "<h2>ITU</h2>",
      "<p>The ITU Radio Regulations allocate the maritime frequencies, and ITU-R Recommendations such as M.493 (digital selective calling), M.1371 (AIS) and M.2092 (VDES) define the technical characteristics of the radio systems.</p>",
      "<h2>Type approval</h2>",
      '<p>For ships in the European Union, equipment must also comply with the Marine Equipment Directive and carry the wheel mark. Other flag States have their own approval schemes, often based on the same IEC test standards. Masthead\'s <a href="/dashboard/upcoming-standards">standards watch</a> lists documents under revision.</p>',
    ),
  },
  {
    url: "/secom",
    title: "SECOM",
    content: html(
      "<p>SECOM is the standard for secure communication between ship and shore, published as IEC 63173-2. It defines how S-100 based data products, such as route plans, navigational warnings or port information, are exchanged between services with confidence in where the data came from and that it has not been changed.</p>",
      "<h2>Key features</h2>",
      "<ul><li>A common set of service interfaces for uploading, requesting and acknowledging data.</li><li>Digital signatures on each data set, based on a public key infrastructure for maritime services.</li><li>Optional encryption of data for a specific recipient.</li><li>Use of standard web technologies, so that services can run over any IP connection, including satellite links.</li></ul>",
      "<h2>Implementation</h2>",
      "<p>SECOM is being implemented in shore services and on-board systems in several test beds. Masthead members contribute to the maintenance of the standard and to interoperability testing. Our cyber security working group publishes guidance on certificate management on board, which is often the most demanding part of an implementation for shipowners.</p>",
      '<p>For an introduction, see the recordings of the SECOM webinars in the <a href="/events">events calendar</a> and the technical papers in the document library.</p>',
    ),
  },
  {
    url: "/traffic-accounting",
    title: "Traffic Accounting",
    content: html(
      "<p>Radiocommunication services used by ships — public correspondence by radio, satellite communication and, increasingly, data services — must be paid for. Traffic accounting is the system by which charges are settled between coast stations and service providers, accounting authorities and shipowners.</p>",
      "<h2>Accounting authorities</h2>",
      "<p>Under the ITU Radio Regulations and ITU-T Recommendation D.90, each ship station is linked to an accounting authority, identified by its Accounting Authority Identification Code (AAIC). The accounting authority settles accounts with service providers on behalf of the ship and recovers the charges from the ship's owner or operator.</p>",
      "<h2>What Masthead offers</h2>",
      "<ul><li>Guidance for members that act as accounting authorities or work with them, including the information to be recorded in ship station licences.</li><li>A forum for accounting authorities and service providers to resolve practical questions, for example on disputed traffic or the closure of ship accounts.</li><li>Contributions to ITU study groups when the accounting rules for maritime services are revised.</li></ul>",
      "<p>As traffic moves from voice to data and from coast stations to satellite networks, many traditional rules need updating. Masthead supports simpler, transparent arrangements that keep distress and safety communications free of charge to ships in all circumstances.</p>",
    ),
  },
  {
    url: "/members-join",
    title: "Join Masthead",
    content: html(
      "<p>Masthead membership is open to companies and organisations that design, manufacture, supply, install or service electronic navigation and radiocommunication equipment for ships, and to others with a professional interest in the field, such as classification societies, training institutions and research bodies.</p>",
      "<h2>Benefits of membership</h2>",
      "<ul><li>Early information on regulatory developments at IMO, IEC, ITU and IALA, with analysis of what they mean for products.</li><li>A voice in the association's position papers and submissions.</li><li>Participation in working groups alongside experts from across the industry.</li><li>Reduced fees for the Annual Conference and the Annual Technical Workshop.</li><li>Access to the members area and the full document library.</li><li>Free allocation of manufacturer identifiers.</li><li>The right to refer to the Service Code of Practice (service members).</li></ul>",
      "<h2>Membership categories</h2>",
      "<ul><li><strong>Full members</strong> — manufacturers and service companies. Full members vote at the General Assembly and may stand for the Board.</li><li><strong>Associate members</strong> — classification societies, system integrators, shipowners and other organisations with a professional interest.</li><li><strong>Academic members</strong> — universities, maritime academies and research institutes, at a reduced fee.</li></ul>",
      "<h2>How to join</h2>",
      "<p>Complete the <em>Join the community</em> form below. The Events and Membership Manager will contact you with the application form and the current fees, which depend on the category and the size of the company. Applications are approved by the Board, usually within one month.</p>",
    ),
  },
  {
    url: "/members-list",
    title: "List of Members",
    content: html(
      "<p>Masthead members range from global manufacturers of integrated bridge systems to local radio service companies. Together they build, install and maintain a large share of the electronic equipment carried by the world fleet.</p>",
      '<p>The list below shows our current member companies by country. To add your company, see <a href="/members-join">how to join</a>.</p>',
    ),
  },
  {
    url: "/privacy-policy",
    title: "Privacy Policy",
    content: html(
      '<p>This privacy policy explains how Masthead ("we", "us") collects and uses personal data when you visit our website, contact us, register for an event or become a member. We are committed to processing personal data in accordance with the UK General Data Protection Regulation, the EU General Data Protection Regulation where it applies, and the Data Protection Act 2018.</p>',
      "<h2>Who is responsible for your data</h2>",
      '<p>The controller of your personal data is Masthead, 2 Riverside Walk, Suite 4, London SE1 9AA, United Kingdom. You can contact our data protection lead at <a href="mailto:privacy@masthead.example">privacy@masthead.example</a>.</p>',
      "<h2>What data we collect</h2>",
      "<ul><li><strong>Contact and join requests:</strong> company name, the name of the representative, email address and telephone number that you enter in our forms, together with the page from which the form was sent and your IP address.</li><li><strong>Event registrations:</strong> the data above plus the event you register for and, where you provide them, dietary or accessibility requirements.</li><li><strong>Member accounts:</strong> name, email address, telephone number, profile picture and password (stored only as a secure hash), and records of your sign-ins.</li><li><strong>Technical data:</strong> server logs with IP address, browser type and the pages requested, kept for security purposes.</li></ul>",
      "<h2>Why we use it and on what legal basis</h2>",
      "<ul><li>To answer your enquiries and process membership applications — our legitimate interest in running the association, or steps prior to entering into a contract.</li><li>To organise events you register for — performance of a contract.</li><li>To provide the members area — performance of the membership contract.</li><li>To protect our website against abuse, for example by rate limiting and spam protection — our legitimate interest in keeping the service secure.</li><li>To send newsletters — your consent, which you may withdraw at any time.</li></ul>",
      "<h2>Cookies</h2>",
      "<p>We use a strictly necessary session cookie when you sign in to the members area. We do not use advertising cookies. Where we use analytics, we ask for your consent first.</p>",
      "<h2>Who we share data with</h2>",
      "<p>We do not sell personal data. We share it only with service providers that host our website and email, with event venues where needed to organise an event, and with authorities where the law requires it. Where data is transferred outside the UK or the European Economic Area, we use standard contractual clauses or rely on adequacy decisions.</p>",
      "<h2>How long we keep it</h2>",
      "<ul><li><strong>Join requests, messages and event registrations:</strong> your name, e-mail address, telephone number, notes and IP address are erased 24 months after we handled your request, or 24 months after the event ended. We keep only that a request or registration was made, for our counts.</li><li><strong>E-mails we sent you:</strong> removed from our systems after 90 days.</li><li><strong>Sign-ins:</strong> a session is kept until it expires; links for setting a password, until they expire or are used.</li><li><strong>Audit log:</strong> the record of changes made by our staff and members' primary contacts, kept for 730 days (two years).</li><li><strong>Member accounts:</strong> kept while you have an account.</li></ul>",
      "<h2>Your rights</h2>",
      '<p>You have the right to access your data, to have it corrected or erased, to restrict or object to its processing, to data portability, and to withdraw consent at any time. Members can download their data and delete their account themselves from their account settings page. Anyone can ask the secretariat to see or erase their data: write to <a href="mailto:privacy@masthead.example">privacy@masthead.example</a>. You also have the right to complain to the Information Commissioner\'s Office or to the supervisory authority in your country.</p>',
      "<h2>Changes to this policy</h2>",
      "<p>We may update this policy from time to time. The current version is always published on this page.</p>",
    ),
  },
];
