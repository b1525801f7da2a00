/* Demo workspace seed — Halyard Admin. Fixed data, loaded into localStorage on first visit. */
window.HALYARD_SEED = (function () {
  var U = function (id, name, email, role, team, status, title, phone, last) {
    return { id: id, name: name, email: email, role: role, team: team, status: status, title: title, phone: phone, last_active: last };
  };
  return {
    today: "2026-11-28",
    seats: 35,
    roles: ["owner", "admin", "billing", "member", "viewer"],
    teamsList: ["Design", "Engineering", "Finance", "Marketing", "Operations", "Sales", "Support"],
    users: [
      U(40, "Dana Whitfield", "dana.whitfield@halyard.io", "owner", "Operations", "active", "CEO", "+1 415 555 0140", "2026-11-28"),
      U(41, "Priya Raman", "priya.raman@halyard.io", "admin", "Engineering", "active", "Engineering Manager", "+1 415 555 0141", "2026-11-28"),
      U(42, "Marcus Oyelaran", "marcus.oyelaran@halyard.io", "member", "Engineering", "active", "Senior Backend Engineer", "+1 415 555 0142", "2026-11-27"),
      U(43, "Chen Wei", "chen.wei@halyard.io", "member", "Engineering", "active", "Frontend Engineer", "", "2026-11-27"),
      U(44, "Sofia Lindqvist", "sofia.lindqvist@halyard.io", "member", "Design", "active", "Product Designer", "+46 8 555 0144", "2026-11-26"),
      U(45, "Tomás Herrera", "tomas.herrera@halyard.io", "member", "Sales", "active", "Account Executive", "+1 646 555 0145", "2026-11-25"),
      U(46, "Aisha Bello", "aisha.bello@halyard.io", "billing", "Finance", "active", "Finance Lead", "+44 20 5550 0146", "2026-11-28"),
      U(47, "Jonas Becker", "jonas.becker@halyard.io", "viewer", "Finance", "active", "Accountant", "", "2026-11-20"),
      U(48, "Hannah Cole", "hannah.cole@halyard.io", "member", "Support", "active", "Support Specialist", "", "2026-11-28"),
      U(49, "Ravi Shankar", "ravi.shankar@halyard.io", "admin", "Engineering", "active", "Staff SRE", "+1 415 555 0149", "2026-11-28"),
      U(50, "Emily Nakamura", "emily.nakamura@halyard.io", "member", "Design", "invited", "UX Researcher", "", ""),
      U(51, "Olu Adeyemi", "olu.adeyemi@halyard.io", "member", "Sales", "active", "Sales Development Rep", "", "2026-11-24"),
      U(52, "Grace O'Connell", "grace.oconnell@halyard.io", "member", "Support", "active", "Support Team Lead", "+353 1 555 0152", "2026-11-28"),
      U(53, "Lucas Moreau", "lucas.moreau@halyard.io", "member", "Engineering", "deactivated", "QA Engineer", "", "2026-09-30"),
      U(54, "Fatima Zahra", "fatima.zahra@halyard.io", "member", "Marketing", "active", "Content Strategist", "", "2026-11-21"),
      U(55, "Ben Carter", "ben.carter@halyard.io", "viewer", "Sales", "active", "Sales Intern", "", "2026-11-18"),
      U(56, "Isabel Duarte", "isabel.duarte@halyard.io", "member", "Marketing", "active", "Growth Marketer", "+351 21 555 0156", "2026-11-27"),
      U(57, "Kwame Mensah", "kwame.mensah@halyard.io", "member", "Engineering", "active", "Data Engineer", "", "2026-11-26"),
      U(58, "Nora Fitzgerald", "nora.fitzgerald@halyard.io", "billing", "Finance", "invited", "Billing Specialist", "", ""),
      U(59, "Daniel Kim", "daniel.kim@halyard.io", "member", "Support", "active", "Support Engineer", "", "2026-11-27"),
      U(60, "Mei Tanaka", "mei.tanaka@halyard.io", "member", "Design", "active", "Visual Designer", "", "2026-11-25"),
      U(61, "Sam Patel", "sam.patel@halyard.io", "member", "Engineering", "active", "Mobile Engineer", "", "2026-11-22"),
      U(62, "Laura Schmidt", "laura.schmidt@halyard.io", "admin", "Operations", "active", "Head of Operations", "+49 30 555 0162", "2026-11-28"),
      U(63, "Diego Alvarez", "diego.alvarez@halyard.io", "member", "Sales", "deactivated", "Account Executive", "", "2026-08-14"),
      U(64, "Yuki Sato", "yuki.sato@halyard.io", "member", "Engineering", "active", "Backend Engineer", "", "2026-11-27"),
      U(65, "Chloe Dubois", "chloe.dubois@halyard.io", "viewer", "Marketing", "active", "Marketing Coordinator", "", "2026-11-19"),
      U(66, "Peter Novak", "peter.novak@halyard.io", "member", "Support", "invited", "Support Specialist", "", ""),
      U(67, "Amara Nwosu", "amara.nwosu@halyard.io", "member", "Engineering", "active", "Security Engineer", "", "2026-11-28"),
      U(68, "Henrik Larsen", "henrik.larsen@halyard.io", "member", "Sales", "active", "Sales Manager", "+45 33 55 0168", "2026-11-26"),
      U(69, "Zoe Mitchell", "zoe.mitchell@halyard.io", "member", "Operations", "active", "Office Manager", "", "2026-11-23"),
      U(70, "Arjun Mehta", "arjun.mehta@halyard.io", "member", "Engineering", "active", "Platform Engineer", "", "2026-11-28"),
      U(71, "Rachel Goldberg", "rachel.goldberg@halyard.io", "member", "Design", "deactivated", "Design Intern", "", "2026-07-31"),
      U(72, "Owen Price", "owen.price@brightledger.com", "viewer", "Finance", "active", "Auditor (external)", "", "2026-11-12"),
      U(73, "Wei Chen", "wei.chen@halyard.io", "member", "Support", "active", "Support Specialist", "", "2026-11-28")
    ],
    teams: [
      { name: "Design", lead: 44, created: "2024-03-02" },
      { name: "Engineering", lead: 41, created: "2023-11-14" },
      { name: "Finance", lead: 46, created: "2024-01-09" },
      { name: "Marketing", lead: 56, created: "2026-11-18" },
      { name: "Operations", lead: 62, created: "2023-11-14" },
      { name: "Sales", lead: 68, created: "2024-01-09" },
      { name: "Support", lead: 52, created: "2024-05-22" }
    ],
    invoices: [
      { no: "INV-2031", customer: "Acme Logistics", contact: "ap@acmelogistics.com", amount: 4800, issued: "2026-09-01", due: "2026-10-01", status: "paid", paid_on: "2026-09-28" },
      { no: "INV-2034", customer: "Birchwood Dental", contact: "office@birchwooddental.com", amount: 1200, issued: "2026-09-15", due: "2026-10-15", status: "paid", paid_on: "2026-10-11" },
      { no: "INV-2036", customer: "Solano Bikes", contact: "hola@solanobikes.com", amount: 899, issued: "2026-09-20", due: "2026-10-20", status: "void" },
      { no: "INV-2038", customer: "Northgate Capital", contact: "payables@northgatecap.com", amount: 12500, issued: "2026-10-01", due: "2026-10-31", status: "open" },
      { no: "INV-2039", customer: "Acme Logistics", contact: "ap@acmelogistics.com", amount: 4800, issued: "2026-10-01", due: "2026-10-31", status: "paid", paid_on: "2026-10-30" },
      { no: "INV-2041", customer: "Pinecrest Schools", contact: "finance@pinecrest.k12.us", amount: 2350, issued: "2026-10-10", due: "2026-11-09", status: "open" },
      { no: "INV-2042", customer: "Harbor & Vine", contact: "accounts@harborandvine.co", amount: 640, issued: "2026-10-20", due: "2026-11-19", status: "open" },
      { no: "INV-2044", customer: "Acme Logistics", contact: "ap@acmelogistics.com", amount: 5150, issued: "2026-11-01", due: "2026-12-01", status: "open" },
      { no: "INV-2045", customer: "Quill Legal LLP", contact: "billing@quill-legal.com", amount: 3000, issued: "2026-11-03", due: "2026-12-03", status: "open" },
      { no: "INV-2046", customer: "Birchwood Dental", contact: "office@birchwooddental.com", amount: 1200, issued: "2026-11-15", due: "2026-12-15", status: "open" },
      { no: "INV-2047", customer: "Solano Bikes", contact: "hola@solanobikes.com", amount: 899, issued: "2026-11-18", due: "2026-12-18", status: "open" },
      { no: "INV-2048", customer: "Northgate Capital", contact: "payables@northgatecap.com", amount: 12500, issued: "2026-11-20", due: "2026-12-20", status: "open" },
      { no: "INV-2049", customer: "Tidewater Health", contact: "ap@tidewaterhealth.org", amount: 7725.5, issued: "2026-11-24", due: "2026-12-24", status: "open" }
    ],
    settings: {
      org_name: "Halyard Inc.",
      billing_email: "billing@halyard.io",
      default_role: "member",
      session_timeout_hours: 8,
      require_2fa: false,
      members_can_invite: false,
      timezone: "America/Los_Angeles"
    },
    audit: [
      { at: "2026-11-27 17:42", actor: "Priya Raman", action: "role.changed", target: "Kwame Mensah", detail: "viewer → member" },
      { at: "2026-11-27 09:15", actor: "Aisha Bello", action: "invoice.paid", target: "INV-2039", detail: "$4,800.00 by bank transfer" },
      { at: "2026-11-26 14:03", actor: "Dana Whitfield", action: "settings.saved", target: "Workspace", detail: "Session timeout 8 hours" },
      { at: "2026-11-25 11:30", actor: "Laura Schmidt", action: "user.invited", target: "Peter Novak", detail: "member, Support" },
      { at: "2026-11-24 16:58", actor: "Aisha Bello", action: "invoice.reminder", target: "INV-2041", detail: "finance@pinecrest.k12.us" },
      { at: "2026-11-22 10:12", actor: "Priya Raman", action: "user.invited", target: "Emily Nakamura", detail: "member, Design" },
      { at: "2026-11-20 08:47", actor: "Aisha Bello", action: "user.invited", target: "Nora Fitzgerald", detail: "billing, Finance" },
      { at: "2026-11-18 13:20", actor: "Dana Whitfield", action: "team.created", target: "Marketing", detail: "lead Isabel Duarte" },
      { at: "2026-10-02 09:00", actor: "Laura Schmidt", action: "user.deactivated", target: "Lucas Moreau", detail: "" },
      { at: "2026-08-15 12:41", actor: "Laura Schmidt", action: "user.deactivated", target: "Diego Alvarez", detail: "" },
      { at: "2026-08-01 09:30", actor: "Priya Raman", action: "user.deactivated", target: "Rachel Goldberg", detail: "" }
    ]
  };
})();
