/* Halyard Admin — single-page console. Hash routing, state -> full re-render. */
(function () {
  "use strict";
  var SEED = window.HALYARD_SEED;
  var TODAY = "2026-11-28"; // fixed "today" for the demo workspace
  var STORE = "halyard.admin.v3";
  var PAGE_SIZE = 10;
  var ROLE_LABEL = { owner: "Owner", admin: "Admin", billing: "Billing", member: "Member", viewer: "Viewer" };
  var ASSIGNABLE = ["admin", "billing", "member", "viewer"];
  var METHODS = { bank_transfer: "Bank transfer", card: "Card", check: "Check", cash: "Cash" };
  var TIMEOUTS = [1, 4, 8, 12, 24];
  var ZONES = ["America/Los_Angeles", "America/New_York", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "UTC"];

  // ---------- persistent data ----------
  var db;
  try { db = JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { db = null; }
  if (!db) {
    db = JSON.parse(JSON.stringify({ users: SEED.users, teams: SEED.teams, invoices: SEED.invoices, settings: SEED.settings, audit: SEED.audit, seats: SEED.seats, nextId: 74 }));
    save();
  }
  function save() { localStorage.setItem(STORE, JSON.stringify(db)); }

  function track(event, values) {
    var body = Object.assign({ event: event }, values || {});
    // queued so the backend receives events in the order they happened
    outbox = outbox.then(function () {
      return fetch("/__events", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    }).catch(function () { /* analytics must never break the UI */ });
  }
  var outbox = Promise.resolve();
  function api(path, payload) {
    return fetch("/api/" + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload || {}) })
      .then(function (r) { return r.json(); }).catch(function () { return { ok: true }; });
  }
  function audit(action, target, detail) {
    var n = db.audit.filter(function (a) { return a.at.indexOf(TODAY) === 0; }).length;
    var mins = 10 + n; // demo clock: today's entries tick forward from 10:10
    db.audit.unshift({ at: TODAY + " 10:" + (mins < 10 ? "0" : "") + mins, actor: "Laura Schmidt", action: action, target: target, detail: detail || "" });
  }

  // ---------- view state (in memory) ----------
  var ui = {
    route: { name: "users" },
    users: { q: "", role: "", status: "", team: "", page: 1, sel: {} , editing: null, menu: null },
    inv: { tab: "all", q: "", menu: null },
    auditf: { action: "", from: "", to: "", actor: "" },
    gq: "", gopen: false,
    modal: null,
    draft: null, dirty: false,
    pendingHash: null
  };

  function uid(p) { return p + "-" + Math.random().toString(36).slice(2, 8); }
  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]; }); }
  function money(n) { return "$" + Number(n).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }
  function fmtDate(iso) {
    if (!iso) return "—";
    var m = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    var p = iso.split("-");
    return m[+p[1] - 1] + " " + (+p[2]) + ", " + p[0];
  }
  function userById(id) { for (var i = 0; i < db.users.length; i++) if (db.users[i].id === id) return db.users[i]; return null; }
  function initials(n) { return n.split(/\s+/).map(function (w) { return w.charAt(0); }).join("").slice(0, 2).toUpperCase(); }
  function seatsUsed() { return db.users.filter(function (u) { return u.status !== "deactivated"; }).length; }
  function invStatus(inv) { return inv.status === "open" && inv.due < TODAY ? "overdue" : inv.status; }
  function teamNames() { return db.teams.map(function (t) { return t.name; }).sort(); }
  function validEmail(s) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s); }

  var ICON = {
    kebab: '<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="3" r="1.5"/><circle cx="8" cy="8" r="1.5"/><circle cx="8" cy="13" r="1.5"/></svg>',
    close: '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="M2 2l10 10M12 2L2 12" stroke="currentColor" stroke-width="2"/></svg>',
    search: '<svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true"><circle cx="7" cy="7" r="5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M11 11l4 4" stroke="currentColor" stroke-width="2"/></svg>',
    bell: '<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M8 1a4 4 0 0 0-4 4v3l-2 3h12l-2-3V5a4 4 0 0 0-4-4zM6 13a2 2 0 0 0 4 0" fill="currentColor"/></svg>',
    help: '<span aria-hidden="true">?</span>'
  };

  // ---------- toasts ----------
  function toast(msg, kind) {
    var stack = document.querySelector(".toast-stack");
    var el = document.createElement("div");
    el.className = "toast toast--" + (kind || "ok");
    el.innerHTML = '<span class="toast__msg">' + esc(msg) + '</span><button class="toast__x" aria-label="Dismiss notification">' + ICON.close + "</button>";
    el.querySelector("button").onclick = function () { el.remove(); };
    stack.appendChild(el);
    setTimeout(function () { el.remove(); }, 5000);
  }

  // ---------- routing ----------
  function parseHash(h) {
    h = (h || "").replace(/^#/, "");
    var parts = h.split("?")[0].split("/").filter(Boolean);
    if (parts[0] === "users" && parts[1]) return { name: "user", id: parseInt(parts[1], 10) };
    if (["users", "teams", "invoices", "audit", "settings"].indexOf(parts[0]) >= 0) return { name: parts[0] };
    return { name: "users" };
  }
  var currentHash = location.hash || "#/users";
  var ignoreHash = false;
  window.addEventListener("hashchange", function () {
    if (ignoreHash) { ignoreHash = false; return; }
    if (ui.dirty) {
      ui.pendingHash = location.hash;
      ignoreHash = true;
      location.hash = currentHash;
      ui.modal = { type: "discard" };
      render();
      return;
    }
    go(location.hash);
  });
  function go(hash) {
    currentHash = hash;
    if (location.hash !== hash) { ignoreHash = true; location.hash = hash; }
    ui.route = parseHash(hash);
    ui.draft = null; ui.dirty = false;
    ui.users.menu = null; ui.inv.menu = null; ui.users.editing = null;
    ui.gopen = false; ui.gq = ""; ui.modal = null;
    if (ui.route.name === "user") {
      var u = userById(ui.route.id);
      if (u) ui.draft = { name: u.name, email: u.email, title: u.title, phone: u.phone, team: u.team, role: u.role };
    }
    if (ui.route.name === "settings") ui.draft = Object.assign({}, db.settings);
    render();
    window.scrollTo(0, 0);
  }
  function navigate(hash) {
    if (ui.dirty) { ui.pendingHash = hash; ui.modal = { type: "discard" }; render(); return; }
    go(hash);
  }

  // ---------- templates ----------
  function topbar() {
    var res = "";
    if (ui.gopen && ui.gq.trim().length >= 2) {
      var q = ui.gq.trim().toLowerCase();
      var items = [];
      db.users.forEach(function (u) { if (u.name.toLowerCase().indexOf(q) >= 0 || u.email.indexOf(q) >= 0) items.push({ label: u.name, sub: u.email + " · User", hash: "#/users/" + u.id }); });
      db.teams.forEach(function (t) { if (t.name.toLowerCase().indexOf(q) >= 0) items.push({ label: t.name + " team", sub: "Team", hash: "#/teams" }); });
      db.invoices.forEach(function (i) { if (i.no.toLowerCase().indexOf(q) >= 0 || i.customer.toLowerCase().indexOf(q) >= 0) items.push({ label: i.no, sub: i.customer + " · Invoice", hash: "#/invoices", inv: i.no }); });
      items = items.slice(0, 8);
      res = '<div class="gsearch__pop"><ul role="listbox" aria-label="Search results" class="gsearch__list">' +
        (items.length ? items.map(function (it) {
          return '<li role="option" aria-selected="false" aria-label="' + esc(it.label) + '" class="gsearch__item" data-act="gpick" data-hash="' + esc(it.hash) + '" data-inv="' + esc(it.inv || "") + '"><span class="gsearch__main">' + esc(it.label) + '</span><span class="gsearch__sub">' + esc(it.sub) + "</span></li>";
        }).join("") : '<li class="gsearch__empty">No matches for “' + esc(ui.gq) + '”</li>') + "</ul></div>";
    }
    return '<header class="topbar"><div class="topbar__in">' +
      '<a class="brand" href="#/users"><span class="brand__mark" aria-hidden="true">◆</span><span class="brand__name">Halyard</span><span class="brand__env">Admin</span></a>' +
      '<div class="gsearch"><span class="gsearch__icon">' + ICON.search + '</span><input type="search" class="gsearch__in" data-k="gsearch" aria-label="Search" placeholder="Search users, teams, invoices…" autocomplete="off" value="' + esc(ui.gq) + '">' + res + "</div>" +
      '<div class="topbar__right"><button class="icon-btn" aria-label="Notifications">' + ICON.bell + '<span class="dot"></span></button><button class="icon-btn" aria-label="Help">' + ICON.help + '</button>' +
      '<div class="me"><span class="avatar avatar--sm">LS</span><span class="me__name">Laura Schmidt</span></div></div>' +
      "</div></header>";
  }
  function sidenav() {
    var r = ui.route.name === "user" ? "users" : ui.route.name;
    var link = function (k, label) { return '<a href="#/' + k + '" class="nav__link' + (r === k ? " is-active" : "") + '"' + (r === k ? ' aria-current="page"' : "") + ">" + label + "</a>"; };
    return '<nav class="side" aria-label="Main"><div class="side__grp"><div class="side__h">Workspace</div>' + link("users", "Users") + link("teams", "Teams") + '</div><div class="side__grp"><div class="side__h">Billing</div>' + link("invoices", "Invoices") + '</div><div class="side__grp"><div class="side__h">Admin</div>' + link("audit", "Audit log") + link("settings", "Settings") +
      '</div><div class="side__plan"><div class="side__planname">Team plan</div><div class="side__seats">' + seatsUsed() + " of " + db.seats + ' seats used</div><div class="bar"><span style="width:' + Math.round(100 * seatsUsed() / db.seats) + '%"></span></div></div></nav>';
  }
  function footer() {
    return '<footer class="foot"><div class="foot__cols"><div><div class="foot__h">Product</div><a href="#/users">Console</a><a href="#/settings">Workspace settings</a><a href="#/invoices">Billing</a></div>' +
      '<div><div class="foot__h">Help</div><a href="#/audit">Audit log</a><a href="#/users">Docs</a><a href="#/users">API reference</a><a href="#/users">Status</a></div>' +
      '<div><div class="foot__h">Company</div><a href="#/users">About Halyard</a><a href="#/users">Privacy</a><a href="#/users">Terms</a><a href="#/users">Security</a></div></div>' +
      '<div class="foot__legal">© 2026 Halyard Inc. · Console v4.18.2 · Region us-west-2</div></footer>';
  }
  function pill(status) { return '<span class="pill pill--' + status + '">' + status.charAt(0).toUpperCase() + status.slice(1) + "</span>"; }
  function opts(list, cur, labelFn) { return list.map(function (v) { return '<option value="' + esc(v) + '"' + (String(v) === String(cur) ? " selected" : "") + ">" + esc(labelFn ? labelFn(v) : v) + "</option>"; }).join(""); }

  function filteredUsers() {
    var f = ui.users, q = f.q.trim().toLowerCase();
    return db.users.filter(function (u) {
      if (q && u.name.toLowerCase().indexOf(q) < 0 && u.email.indexOf(q) < 0) return false;
      if (f.role && u.role !== f.role) return false;
      if (f.status && u.status !== f.status) return false;
      if (f.team && u.team !== f.team) return false;
      return true;
    }).sort(function (a, b) { return a.name.localeCompare(b.name); });
  }

  function viewUsers() {
    var f = ui.users, list = filteredUsers();
    var pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    if (f.page > pages) f.page = pages;
    var rows = list.slice((f.page - 1) * PAGE_SIZE, f.page * PAGE_SIZE);
    var selIds = Object.keys(f.sel).filter(function (k) { return f.sel[k]; }).map(Number);
    var allOn = rows.length && rows.every(function (u) { return f.sel[u.id]; });
    var h = '<div class="page-head"><div><h1>Users</h1><p class="muted">Manage who can sign in to the Halyard workspace.</p></div><button class="btn btn--primary" data-act="invite">Invite user</button></div>';
    h += '<div class="card"><div class="toolbar">' +
      '<div class="field-inline"><input type="text" class="in in--search" data-k="usearch" placeholder="Search by name or email" value="' + esc(f.q) + '"></div>' +
      '<div class="flt"><span class="flt__lbl">Role</span><select class="in" data-k="frole" data-f="role"><option value="">All roles</option>' + opts(SEED.roles, f.role, function (r) { return ROLE_LABEL[r]; }) + "</select></div>" +
      '<div class="flt"><span class="flt__lbl">Status</span><select class="in" data-k="fstatus" data-f="status"><option value="">Any status</option>' + opts(["active", "invited", "deactivated"], f.status, function (s) { return s.charAt(0).toUpperCase() + s.slice(1); }) + "</select></div>" +
      '<div class="flt"><span class="flt__lbl">Team</span><select class="in" data-k="fteam" data-f="team"><option value="">All teams</option>' + opts(teamNames(), f.team) + "</select></div>" +
      (f.q || f.role || f.status || f.team ? '<button class="btn btn--ghost" data-act="clear-filters">Clear filters</button>' : "") +
      "</div>";
    if (selIds.length) {
      h += '<div class="bulk" role="region" aria-label="Bulk actions"><span class="bulk__n">' + selIds.length + " selected</span>" +
        '<button class="btn btn--danger-soft" data-act="bulk-deactivate">Deactivate selected</button>' +
        '<span class="bulk__sep"></span><span class="flt__lbl">Change role to</span><select class="in" data-k="bulkrole" aria-label="New role for selected users"><option value="">Choose role…</option>' + opts(ASSIGNABLE, "", function (r) { return ROLE_LABEL[r]; }) + "</select>" +
        '<button class="btn" data-act="bulk-role">Apply</button><button class="btn btn--ghost" data-act="bulk-clear">Clear selection</button></div>';
    }
    h += '<div class="tbl-wrap"><table class="tbl"><thead><tr><th class="c-check"><input type="checkbox" aria-label="Select all users on this page" data-act="sel-page"' + (allOn ? " checked" : "") + "></th><th>Name</th><th>Email</th><th>Role</th><th>Team</th><th>Status</th><th>Last active</th><th><span class=\"sr\">Actions</span></th></tr></thead><tbody>";
    if (!rows.length) h += '<tr><td colspan="8" class="empty">No users match these filters.</td></tr>';
    rows.forEach(function (u) {
      var nameCell = f.editing === u.id
        ? '<input class="in in--cell" data-k="cell-' + u.id + '" aria-label="Edit name" value="' + esc(u.name) + '" data-act-key="cell-name" data-id="' + u.id + '"><span class="hint">Enter to save · Esc to cancel</span>'
        : '<div class="namecell"><span class="avatar">' + initials(u.name) + '</span><button class="linkish" title="Click to edit name" data-act="edit-name" data-id="' + u.id + '">' + esc(u.name) + "</button></div>";
      var menu = "";
      if (f.menu === u.id) {
        menu = '<div class="menu" role="menu" aria-label="Actions for ' + esc(u.name) + '">' +
          '<button role="menuitem" class="menu__item" data-act="m-view" data-id="' + u.id + '">View details</button>' +
          (u.role !== "owner" && u.status !== "deactivated" ? '<button role="menuitem" class="menu__item" data-act="m-role" data-id="' + u.id + '">Change role</button>' : "") +
          (u.status === "invited" ? '<button role="menuitem" class="menu__item" data-act="m-resend" data-id="' + u.id + '">Resend invite</button>' : "") +
          (u.role !== "owner" && u.status !== "deactivated" ? '<button role="menuitem" class="menu__item" data-act="m-deact" data-id="' + u.id + '">Deactivate</button>' : "") +
          (u.status === "deactivated" ? '<button role="menuitem" class="menu__item" data-act="m-react" data-id="' + u.id + '">Reactivate</button>' : "") +
          (u.role !== "owner" ? '<div class="menu__sep"></div><button role="menuitem" class="menu__item menu__item--danger" data-act="m-delete" data-id="' + u.id + '">Delete user</button>' : "") +
          "</div>";
      }
      h += '<tr class="' + (f.sel[u.id] ? "is-sel" : "") + '" id="' + uid("u") + '"><td class="c-check"><input type="checkbox" aria-label="Select ' + esc(u.name) + '" data-act="sel" data-id="' + u.id + '"' + (f.sel[u.id] ? " checked" : "") + "></td>" +
        "<td>" + nameCell + '</td><td class="muted">' + esc(u.email) + "</td><td>" + ROLE_LABEL[u.role] + "</td><td>" + esc(u.team) + "</td><td>" + pill(u.status) + '</td><td class="muted">' + (u.last_active ? fmtDate(u.last_active) : "Never") + "</td>" +
        '<td class="c-act"><div class="kebab"><button class="icon-btn" aria-label="More actions" aria-haspopup="menu" aria-expanded="' + (f.menu === u.id) + '" data-act="menu" data-id="' + u.id + '">' + ICON.kebab + "</button>" + menu + "</div></td></tr>";
    });
    h += "</tbody></table></div>";
    var from = list.length ? (f.page - 1) * PAGE_SIZE + 1 : 0, to = Math.min(list.length, f.page * PAGE_SIZE);
    h += '<div class="pager"><span class="muted">Showing ' + from + "–" + to + " of " + list.length + '</span><div class="pager__btns"><button class="btn btn--sm" data-act="page" data-p="' + (f.page - 1) + '"' + (f.page <= 1 ? " disabled" : "") + ">Previous</button>";
    for (var p = 1; p <= pages; p++) h += '<button class="btn btn--sm' + (p === f.page ? " is-cur" : "") + '" aria-label="Page ' + p + '"' + (p === f.page ? ' aria-current="page"' : "") + ' data-act="page" data-p="' + p + '">' + p + "</button>";
    h += '<button class="btn btn--sm" data-act="page" data-p="' + (f.page + 1) + '"' + (f.page >= pages ? " disabled" : "") + ">Next</button></div></div></div>";
    return h;
  }

  function viewUser() {
    var u = userById(ui.route.id);
    if (!u) return '<div class="page-head"><h1>User not found</h1></div><p>No user with id ' + esc(ui.route.id) + '. <a href="#/users">Back to users</a></p>';
    var d = ui.draft;
    var h = '<div class="crumbs"><a href="#/users">Users</a> <span aria-hidden="true">/</span> <span>' + esc(u.name) + "</span></div>";
    h += '<div class="page-head"><div class="namecell"><span class="avatar avatar--lg">' + initials(u.name) + '</span><div><h1>' + esc(u.name) + "</h1><div class=\"muted\">" + esc(u.email) + " · " + pill(u.status) + '</div></div></div><button class="btn btn--ghost" data-act="back-users">Back to users</button></div>';
    h += '<div class="grid2"><div class="card card--pad"><h2>Profile</h2><form class="form" data-form="user" novalidate>';
    var fid = uid("f");
    h += '<div class="row"><label for="' + fid + 'n">Full name</label><input id="' + fid + 'n" class="in" data-k="p-name" data-d="name" value="' + esc(d.name) + '"></div>';
    h += '<div class="row"><label for="' + fid + 'e">Email address</label><input id="' + fid + 'e" type="email" class="in" data-k="p-email" data-d="email" value="' + esc(d.email) + '"></div>';
    h += '<div class="row"><div class="lbl">Job title</div><input class="in" data-k="p-title" data-d="title" value="' + esc(d.title) + '"></div>';
    h += '<div class="row"><div class="lbl">Phone <span class="muted">(optional)</span></div><input class="in" data-k="p-phone" data-d="phone" placeholder="Phone number" value="' + esc(d.phone) + '"></div>';
    h += '<div class="row2"><div class="row"><label for="' + fid + 't">Team</label><select id="' + fid + 't" class="in" data-k="p-team" data-d="team">' + opts(teamNames(), d.team) + "</select></div>";
    if (u.role === "owner") h += '<div class="row"><div class="lbl">Role</div><div class="static">Owner <span class="muted">— transfer ownership from Settings › Danger zone (contact support)</span></div></div></div>';
    else h += '<div class="row"><label for="' + fid + 'r">Role</label><select id="' + fid + 'r" class="in" data-k="p-role" data-d="role">' + opts(ASSIGNABLE, d.role, function (r) { return ROLE_LABEL[r]; }) + "</select></div></div>";
    h += '<div class="form__err" data-err></div><div class="form__actions"><button type="button" class="btn" data-act="cancel-user">Cancel</button><button type="submit" class="btn btn--primary">Save changes</button></div></form></div>';
    h += '<div class="side-col"><div class="card card--pad"><h2>Activity</h2><dl class="dl"><dt>Last active</dt><dd>' + (u.last_active ? fmtDate(u.last_active) : "Never signed in") + "</dd><dt>User ID</dt><dd>" + u.id + "</dd><dt>Status</dt><dd>" + pill(u.status) + "</dd></dl>" +
      (u.status === "invited" ? '<button class="btn" data-act="m-resend" data-id="' + u.id + '">Resend invite</button>' : "") + "</div>";
    h += '<div class="card card--pad card--danger"><h2>Danger zone</h2>';
    if (u.role === "owner") h += '<p class="muted">The workspace owner can’t be deactivated or deleted.</p>';
    else {
      h += u.status === "deactivated"
        ? '<p class="muted">This user can’t sign in.</p><button class="btn" data-act="m-react" data-id="' + u.id + '">Reactivate user</button>'
        : '<p class="muted">Deactivated users lose access immediately but keep their history.</p><button class="btn btn--danger-soft" data-act="m-deact" data-id="' + u.id + '">Deactivate user</button>';
      h += '<p class="muted">Deleting removes the user and their personal data permanently.</p><button class="btn btn--danger" data-act="m-delete" data-id="' + u.id + '">Delete user</button>';
    }
    h += "</div></div></div>";
    return h;
  }

  function viewTeams() {
    var h = '<div class="page-head"><div><h1>Teams</h1><p class="muted">Group users for permissions and reporting.</p></div><button class="btn btn--primary" data-act="new-team">New team</button></div><div class="cards">';
    db.teams.slice().sort(function (a, b) { return a.name.localeCompare(b.name); }).forEach(function (t) {
      var members = db.users.filter(function (u) { return u.team === t.name && u.status !== "deactivated"; });
      var lead = t.lead ? userById(t.lead) : null;
      h += '<article class="card card--pad team" aria-label="' + esc(t.name) + '"><div class="team__head"><h2>' + esc(t.name) + '</h2><span class="muted">' + members.length + " member" + (members.length === 1 ? "" : "s") + "</span></div>" +
        '<div class="muted">Lead: ' + (lead ? esc(lead.name) : "—") + "</div>" +
        '<div class="team__faces">' + members.slice(0, 6).map(function (m) { return '<span class="avatar avatar--sm" title="' + esc(m.name) + '">' + initials(m.name) + "</span>"; }).join("") + (members.length > 6 ? '<span class="more">+' + (members.length - 6) + "</span>" : "") + "</div>" +
        '<div class="team__foot"><button class="btn btn--sm" data-act="add-member" data-team="' + esc(t.name) + '">Add member</button></div></article>';
    });
    return h + "</div>";
  }

  function viewInvoices() {
    var f = ui.inv;
    var list = db.invoices.filter(function (i) {
      var st = invStatus(i);
      if (f.tab !== "all" && st !== f.tab) return false;
      var q = f.q.trim().toLowerCase();
      if (q && i.no.toLowerCase().indexOf(q) < 0 && i.customer.toLowerCase().indexOf(q) < 0) return false;
      return true;
    }).sort(function (a, b) { return b.no.localeCompare(a.no); });
    var outstanding = db.invoices.filter(function (i) { return i.status === "open"; }).reduce(function (s, i) { return s + i.amount; }, 0);
    var overdue = db.invoices.filter(function (i) { return invStatus(i) === "overdue"; });
    var h = '<div class="page-head"><div><h1>Invoices</h1><p class="muted">Customer invoices issued from Halyard Billing.</p></div></div>';
    if (overdue.length) h += '<div class="banner banner--warn" role="alert"><strong>' + overdue.length + " invoices are overdue.</strong> Send a reminder or record the payment if it has arrived.</div>";
    h += '<div class="stats"><div class="stat"><div class="stat__n">' + money(outstanding) + '</div><div class="muted">Outstanding</div></div><div class="stat"><div class="stat__n">' + overdue.length + '</div><div class="muted">Overdue</div></div></div>';
    h += '<div class="card"><div class="toolbar"><div class="tabs" role="tablist" aria-label="Invoice status">';
    [["all", "All"], ["open", "Open"], ["overdue", "Overdue"], ["paid", "Paid"], ["void", "Void"]].forEach(function (t) {
      h += '<button role="tab" class="tab' + (f.tab === t[0] ? " is-on" : "") + '" aria-selected="' + (f.tab === t[0]) + '" data-act="inv-tab" data-tab="' + t[0] + '">' + t[1] + "</button>";
    });
    h += '</div><input type="text" class="in in--search" data-k="isearch" placeholder="Search invoices" value="' + esc(f.q) + '"></div>';
    h += '<div class="tbl-wrap"><table class="tbl"><thead><tr><th>Invoice</th><th>Customer</th><th>Issued</th><th>Due</th><th class="num">Amount</th><th>Status</th><th><span class="sr">Actions</span></th></tr></thead><tbody>';
    if (!list.length) h += '<tr><td colspan="7" class="empty">No invoices.</td></tr>';
    list.forEach(function (i) {
      var st = invStatus(i), menu = "";
      if (f.menu === i.no) {
        menu = '<div class="menu" role="menu" aria-label="Actions for ' + i.no + '">' +
          (i.status === "open" ? '<button role="menuitem" class="menu__item" data-act="inv-paid" data-no="' + i.no + '">Mark as paid</button><button role="menuitem" class="menu__item" data-act="inv-remind" data-no="' + i.no + '">Send reminder</button>' : "") +
          '<button role="menuitem" class="menu__item" data-act="inv-pdf" data-no="' + i.no + '">Download PDF</button>' +
          (i.status === "open" ? '<div class="menu__sep"></div><button role="menuitem" class="menu__item menu__item--danger" data-act="inv-void" data-no="' + i.no + '">Void invoice</button>' : "") + "</div>";
      }
      h += '<tr id="' + uid("i") + '"><td><strong>' + i.no + "</strong></td><td>" + esc(i.customer) + '</td><td class="muted">' + fmtDate(i.issued) + "</td><td>" + fmtDate(i.due) + '</td><td class="num">' + money(i.amount) + "</td><td>" + pill(st) + (i.paid_on ? '<div class="muted tiny">paid ' + fmtDate(i.paid_on) + "</div>" : "") + "</td>" +
        '<td class="c-act"><div class="kebab"><button class="icon-btn" aria-label="More actions" aria-haspopup="menu" aria-expanded="' + (f.menu === i.no) + '" data-act="inv-menu" data-no="' + i.no + '">' + ICON.kebab + "</button>" + menu + "</div></td></tr>";
    });
    return h + "</tbody></table></div></div>";
  }

  var ACTIONS = ["user.invited", "user.updated", "user.deactivated", "user.reactivated", "user.deleted", "role.changed", "team.created", "team.member_added", "invoice.paid", "invoice.reminder", "invoice.voided", "settings.saved"];
  function viewAudit() {
    var f = ui.auditf;
    var list = db.audit.filter(function (a) {
      if (f.action && a.action !== f.action) return false;
      var day = a.at.slice(0, 10);
      if (f.from && day < f.from) return false;
      if (f.to && day > f.to) return false;
      if (f.actor && a.actor.toLowerCase().indexOf(f.actor.toLowerCase()) < 0) return false;
      return true;
    });
    var h = '<div class="page-head"><div><h1>Audit log</h1><p class="muted">Every administrative change in this workspace, newest first. Retained for 400 days.</p></div><button class="btn" data-act="audit-export">Export CSV</button></div>';
    h += '<div class="card"><div class="toolbar"><div class="flt"><span class="flt__lbl">Action</span><select class="in" data-k="aaction" data-af="action"><option value="">All actions</option>' + opts(ACTIONS, f.action) + "</select></div>" +
      '<div class="flt"><span class="flt__lbl">From</span><input type="date" class="in" data-k="afrom" data-af="from" value="' + esc(f.from) + '"></div>' +
      '<div class="flt"><span class="flt__lbl">To</span><input type="date" class="in" data-k="ato" data-af="to" value="' + esc(f.to) + '"></div>' +
      '<input type="text" class="in in--search" data-k="aactor" data-af="actor" placeholder="Filter by actor" value="' + esc(f.actor) + '"></div>';
    h += '<div class="tbl-wrap"><table class="tbl"><thead><tr><th>Time (UTC)</th><th>Actor</th><th>Action</th><th>Target</th><th>Details</th></tr></thead><tbody>';
    if (!list.length) h += '<tr><td colspan="5" class="empty">No entries in this range.</td></tr>';
    list.forEach(function (a) { h += '<tr><td class="muted mono">' + esc(a.at) + "</td><td>" + esc(a.actor) + '</td><td><code>' + esc(a.action) + "</code></td><td>" + esc(a.target) + '</td><td class="muted">' + esc(a.detail) + "</td></tr>"; });
    return h + "</tbody></table></div></div>";
  }

  function viewSettings() {
    var d = ui.draft, fid = uid("s");
    var h = '<div class="page-head"><div><h1>Settings</h1><p class="muted">Workspace-wide preferences. Changes apply to everyone.</p></div></div>';
    h += '<form class="card card--pad form" data-form="settings" novalidate><h2>Organization</h2>';
    h += '<div class="row"><label for="' + fid + 'o">Organization name</label><input id="' + fid + 'o" class="in" data-k="s-org" data-d="org_name" value="' + esc(d.org_name) + '"></div>';
    h += '<div class="row"><div class="lbl">Billing email</div><input type="email" class="in" data-k="s-bill" data-d="billing_email" value="' + esc(d.billing_email) + '"><div class="help">Invoices and receipts from Halyard go here.</div></div>';
    h += '<div class="row"><label for="' + fid + 'z">Time zone</label><select id="' + fid + 'z" class="in" data-k="s-tz" data-d="timezone">' + opts(ZONES, d.timezone) + "</select></div>";
    h += '<h2>Access</h2><div class="row"><label for="' + fid + 'r">Default role for new users</label><select id="' + fid + 'r" class="in" data-k="s-role" data-d="default_role">' + opts(ASSIGNABLE, d.default_role, function (r) { return ROLE_LABEL[r]; }) + "</select></div>";
    h += '<div class="row"><label for="' + fid + 't">Session timeout</label><select id="' + fid + 't" class="in" data-k="s-to" data-d="session_timeout_hours">' + opts(TIMEOUTS, d.session_timeout_hours, function (n) { return n + (n === 1 ? " hour" : " hours"); }) + "</select></div>";
    h += '<div class="row row--check"><input type="checkbox" id="' + fid + 'f" data-k="s-2fa" data-d="require_2fa"' + (d.require_2fa ? " checked" : "") + '><label for="' + fid + 'f">Require two-factor authentication for all users</label></div>';
    h += '<div class="row row--check"><span class="lbl">Members can invite other users</span><button type="button" role="switch" class="switch' + (d.members_can_invite ? " is-on" : "") + '" aria-checked="' + d.members_can_invite + '" aria-label="Members can invite other users" data-act="toggle-invite"><span></span></button></div>';
    h += '<div class="form__err" data-err></div><div class="form__actions"><button type="button" class="btn" data-act="reset-settings">Reset</button><button type="submit" class="btn btn--primary">Save settings</button></div></form>';
    return h;
  }

  // ---------- modals ----------
  function dialog(title, body, actions, extraCls) {
    var hid = uid("dlg");
    return '<div class="scrim"><div class="dialog ' + (extraCls || "") + '" role="dialog" aria-modal="true" aria-labelledby="' + hid + '"><div class="dialog__head"><h2 id="' + hid + '">' + esc(title) + '</h2><button class="icon-btn" aria-label="Close dialog" data-act="close-modal">' + ICON.close + '</button></div><div class="dialog__body">' + body + '<div class="form__err" data-err></div></div><div class="dialog__foot">' + actions + "</div></div></div>";
  }
  function viewModal() {
    var m = ui.modal; if (!m) return "";
    var fid = uid("m"), u = m.id ? userById(m.id) : null;
    switch (m.type) {
      case "discard":
        return dialog("Discard changes?", "<p>You have unsaved changes on this page. If you leave now they will be lost.</p>", '<button class="btn" data-act="keep-editing">Keep editing</button><button class="btn btn--danger" data-act="discard">Discard changes</button>');
      case "invite":
        return dialog("Invite user", '<p class="muted">' + (db.seats - seatsUsed()) + " of " + db.seats + " seats left on the Team plan.</p>" +
          '<div class="row"><label for="' + fid + 'e">Email address</label><input id="' + fid + 'e" type="email" class="in" data-k="inv-email" data-m="email" placeholder="name@company.com" value="' + esc(m.email || "") + '"></div>' +
          '<div class="row"><input class="in" data-k="inv-name" data-m="name" placeholder="Full name" value="' + esc(m.name || "") + '"></div>' +
          '<div class="row2"><div class="row"><label for="' + fid + 'r">Role</label><select id="' + fid + 'r" class="in" data-k="inv-role" data-m="role">' + opts(ASSIGNABLE, m.role || db.settings.default_role, function (r) { return ROLE_LABEL[r]; }) + "</select></div>" +
          '<div class="row"><div class="lbl">Team</div><select class="in" data-k="inv-team" data-m="team"><option value="">Select a team…</option>' + opts(teamNames(), m.team || "") + "</select></div></div>",
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="send-invite">Send invite</button>');
      case "role":
        return dialog("Change role", "<p>Choose a new role for <strong>" + esc(u.name) + "</strong>. Current role: " + ROLE_LABEL[u.role] + ".</p>" +
          '<div class="row"><label for="' + fid + 'r">Role</label><select id="' + fid + 'r" class="in" data-k="role-sel" data-m="role">' + opts(ASSIGNABLE, m.role || u.role, function (r) { return ROLE_LABEL[r]; }) + "</select></div>" +
          '<ul class="muted tiny role-help"><li>Admin — full access except billing ownership</li><li>Billing — invoices and payment methods</li><li>Member — day-to-day use</li><li>Viewer — read only</li></ul>',
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="save-role">Save role</button>');
      case "deact":
        return dialog("Deactivate " + u.name + "?", "<p>" + esc(u.name) + " will be signed out and won’t be able to sign in. You can reactivate them later.</p>", '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--danger" data-act="confirm-deact">Deactivate</button>');
      case "bulk-deact":
        return dialog("Deactivate " + m.ids.length + " users?", "<p>These users will be signed out immediately:</p><ul>" + m.ids.map(function (id) { return "<li>" + esc(userById(id).name) + "</li>"; }).join("") + "</ul>", '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--danger" data-act="confirm-bulk-deact">Deactivate users</button>');
      case "delete":
        return dialog("Delete user", '<p>This permanently deletes <strong>' + esc(u.name) + "</strong> (" + esc(u.email) + ") and can’t be undone.</p><p>Type <strong>" + esc(u.name) + "</strong> to confirm.</p>" +
          '<input class="in" data-k="del-confirm" data-m="typed" aria-label="Type the user&#39;s full name to confirm" autocomplete="off" value="' + esc(m.typed || "") + '">',
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--danger" data-act="confirm-delete"' + (m.typed === u.name ? "" : " disabled") + ">Delete permanently</button>");
      case "team":
        var act = db.users.filter(function (x) { return x.status === "active"; }).sort(function (a, b) { return a.name.localeCompare(b.name); });
        return dialog("New team", '<div class="row"><label for="' + fid + 'n">Team name</label><input id="' + fid + 'n" class="in" data-k="team-name" data-m="name" value="' + esc(m.name || "") + '"></div>' +
          '<div class="row"><label for="' + fid + 'l">Team lead</label><select id="' + fid + 'l" class="in" data-k="team-lead" data-m="lead"><option value="">No lead</option>' + act.map(function (x) { return '<option value="' + x.id + '"' + (String(m.lead) === String(x.id) ? " selected" : "") + ">" + esc(x.name) + "</option>"; }).join("") + "</select></div>",
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="create-team">Create team</button>');
      case "member":
        var cand = db.users.filter(function (x) { return x.status !== "deactivated" && x.team !== m.team; }).sort(function (a, b) { return a.name.localeCompare(b.name); });
        return dialog("Add member to " + m.team, '<p class="muted">Users belong to one team; adding someone moves them from their current team.</p><div class="row"><label for="' + fid + 'u">User</label><select id="' + fid + 'u" class="in" data-k="mem-user" data-m="user"><option value="">Select a user…</option>' + cand.map(function (x) { return '<option value="' + x.id + '"' + (String(m.user) === String(x.id) ? " selected" : "") + ">" + esc(x.name) + " (" + esc(x.team) + ")</option>"; }).join("") + "</select></div>",
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="confirm-member">Add to team</button>');
      case "paid":
        var inv = m.inv;
        return dialog("Mark " + inv.no + " as paid", "<p>" + esc(inv.customer) + " · " + money(inv.amount) + " · due " + fmtDate(inv.due) + "</p>" +
          '<div class="row"><label for="' + fid + 'd">Payment date</label><input id="' + fid + 'd" type="date" class="in" data-k="pay-date" data-m="date" max="' + TODAY + '" value="' + esc(m.date) + '"></div>' +
          '<div class="row"><div class="lbl">Payment method</div><select class="in" data-k="pay-method" data-m="method">' + opts(Object.keys(METHODS), m.method, function (k) { return METHODS[k]; }) + "</select></div>" +
          '<div class="row"><label for="' + fid + 'x">Reference (optional)</label><input id="' + fid + 'x" class="in" data-k="pay-ref" data-m="ref" placeholder="e.g. wire or check number" value="' + esc(m.ref || "") + '"></div>',
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="confirm-paid">Record payment</button>');
      case "void":
        return dialog("Void " + m.inv.no + "?", "<p>The customer will no longer be able to pay this invoice. This can’t be undone.</p>", '<button class="btn" data-act="close-modal">Keep invoice</button><button class="btn btn--danger" data-act="confirm-void">Void invoice</button>');
      case "export":
        return dialog("Export audit log", "<p>We’ll prepare a CSV of the entries matching your current filters" + (ui.auditf.action ? " (" + esc(ui.auditf.action) + ")" : "") + (ui.auditf.from || ui.auditf.to ? ", " + (ui.auditf.from ? fmtDate(ui.auditf.from) : "start") + " – " + (ui.auditf.to ? fmtDate(ui.auditf.to) : "today") : "") + " and email it to laura.schmidt@halyard.io.</p>",
          '<button class="btn" data-act="close-modal">Cancel</button><button class="btn btn--primary" data-act="confirm-export">Export</button>');
    }
    return "";
  }

  // ---------- render ----------
  function render() {
    var a = document.activeElement, key = a && a.getAttribute && a.getAttribute("data-k"), s = null, e = null;
    try { if (key && a.selectionStart != null) { s = a.selectionStart; e = a.selectionEnd; } } catch (x) { /* not a text field */ }
    var body = { users: viewUsers, user: viewUser, teams: viewTeams, invoices: viewInvoices, audit: viewAudit, settings: viewSettings }[ui.route.name]();
    document.getElementById("root").innerHTML = topbar() + '<div class="shell">' + sidenav() + '<main class="main"><div class="main__in">' + body + "</div>" + footer() + "</main></div>" + viewModal();
    if (key) {
      var n = document.querySelector('[data-k="' + key + '"]');
      if (n) { n.focus(); try { if (s != null) n.setSelectionRange(s, e); } catch (x) { /* ignore */ } }
    }
    if (ui.users.editing && ui.route.name === "users") {
      var c = document.querySelector('[data-act-key="cell-name"]');
      if (c && document.activeElement !== c) { c.focus(); c.select(); }
    }
  }
  function showErr(msg) { var el = document.querySelector(".dialog [data-err]") || document.querySelector("[data-err]"); if (el) { el.textContent = msg; el.setAttribute("role", "alert"); } }

  // ---------- actions ----------
  function changeRole(u, role) {
    if (u.role === role) return false;
    var old = u.role; u.role = role;
    track("role_changed", { user_id: u.id, email: u.email, role: role });
    audit("role.changed", u.name, old + " → " + role);
    return true;
  }
  function deactivate(u) {
    u.status = "deactivated";
    track("user_deactivated", { user_id: u.id, email: u.email });
    audit("user.deactivated", u.name, "");
  }
  function selectedIds() { return Object.keys(ui.users.sel).filter(function (k) { return ui.users.sel[k]; }).map(Number).sort(function (a, b) { return a - b; }); }

  var timers = {};
  function debounce(k, fn) { clearTimeout(timers[k]); timers[k] = setTimeout(fn, 300); }

  document.addEventListener("input", function (ev) {
    var t = ev.target, k = t.getAttribute("data-k");
    if (!k) return;
    if (k === "gsearch") { var v = t.value; debounce("g", function () { ui.gq = v; ui.gopen = true; render(); }); return; }
    if (k === "usearch") { var q = t.value; debounce("u", function () { ui.users.q = q; ui.users.page = 1; render(); }); return; }
    if (k === "isearch") { var iq = t.value; debounce("i", function () { ui.inv.q = iq; render(); }); return; }
    if (t.hasAttribute("data-af") && t.type === "text") { var av = t.value; debounce("a", function () { ui.auditf.actor = av; render(); }); return; }
    if (t.hasAttribute("data-d") && ui.draft && t.tagName !== "SELECT") { ui.draft[t.getAttribute("data-d")] = t.type === "checkbox" ? t.checked : t.value; ui.dirty = true; return; }
    if (t.hasAttribute("data-m") && ui.modal && t.tagName !== "SELECT") {
      ui.modal[t.getAttribute("data-m")] = t.value;
      if (ui.modal.type === "delete") { var b = document.querySelector('[data-act="confirm-delete"]'); if (b) b.disabled = t.value !== userById(ui.modal.id).name; }
    }
  });
  document.addEventListener("change", function (ev) {
    var t = ev.target;
    if (t.hasAttribute("data-f")) { ui.users[t.getAttribute("data-f")] = t.value; ui.users.page = 1; render(); return; }
    if (t.hasAttribute("data-af") && t.type !== "text") { ui.auditf[t.getAttribute("data-af")] = t.value; render(); return; }
    if (t.hasAttribute("data-d") && ui.draft) {
      var k = t.getAttribute("data-d");
      ui.draft[k] = t.type === "checkbox" ? t.checked : (k === "session_timeout_hours" ? Number(t.value) : t.value);
      ui.dirty = true; return;
    }
    if (t.hasAttribute("data-m") && ui.modal) ui.modal[t.getAttribute("data-m")] = t.value;
  });
  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (t.getAttribute && t.getAttribute("data-act-key") === "cell-name") {
      if (ev.key === "Escape") { ui.users.editing = null; render(); }
      if (ev.key === "Enter") {
        ev.preventDefault();
        var u = userById(Number(t.getAttribute("data-id"))), v = t.value.trim().replace(/\s+/g, " ");
        ui.users.editing = null;
        if (!v) { toast("Name can’t be empty", "err"); render(); return; }
        if (v !== u.name) {
          var old = u.name; u.name = v; save();
          track("user_updated", { user_id: u.id, name: v });
          audit("user.updated", v, "name: " + old + " → " + v); save();
          toast("Renamed " + old + " to " + v);
        }
        render();
      }
      return;
    }
    if (ev.key === "Escape" && ui.modal && ui.modal.type !== "discard") { ui.modal = null; render(); }
    if (ev.key === "Escape" && (ui.users.menu || ui.inv.menu)) { ui.users.menu = null; ui.inv.menu = null; render(); }
    // Enter runs a search right away instead of waiting for the debounce
    var dk = t.getAttribute && t.getAttribute("data-k");
    if (ev.key === "Enter" && dk === "gsearch") { ev.preventDefault(); clearTimeout(timers.g); ui.gq = t.value; ui.gopen = true; render(); }
    if (ev.key === "Enter" && dk === "usearch") { ev.preventDefault(); clearTimeout(timers.u); ui.users.q = t.value; ui.users.page = 1; render(); }
    if (ev.key === "Enter" && dk === "isearch") { ev.preventDefault(); clearTimeout(timers.i); ui.inv.q = t.value; render(); }
  });
  document.addEventListener("focusout", function (ev) {
    var t = ev.target;
    if (t.getAttribute && t.getAttribute("data-act-key") === "cell-name") {
      setTimeout(function () { if (ui.users.editing && document.activeElement !== document.querySelector('[data-act-key="cell-name"]')) { ui.users.editing = null; render(); } }, 150);
    }
  });
  document.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var f = ev.target.getAttribute("data-form");
    if (f === "user") saveUser();
    if (f === "settings") saveSettings();
  });
  // unsaved-changes guard for in-app links
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[href^='#/']");
    if (a && ui.dirty) { ev.preventDefault(); ui.pendingHash = a.getAttribute("href"); ui.modal = { type: "discard" }; render(); }
  }, true);

  function saveUser() {
    var u = userById(ui.route.id), d = ui.draft;
    var clean = { name: d.name.trim().replace(/\s+/g, " "), email: d.email.trim().toLowerCase(), title: d.title.trim(), phone: d.phone.trim(), team: d.team };
    if (!clean.name) return showErr("Full name is required.");
    if (!validEmail(clean.email)) return showErr("Enter a valid email address.");
    if (db.users.some(function (x) { return x.id !== u.id && x.email === clean.email; })) return showErr("Another user already has this email address.");
    var changed = {}, any = false;
    ["name", "email", "title", "phone", "team"].forEach(function (k) { if (clean[k] !== u[k]) { changed[k] = clean[k]; any = true; } });
    var roleChanged = u.role !== "owner" && d.role !== u.role;
    if (!any && !roleChanged) { ui.dirty = false; toast("No changes to save", "info"); return; }
    var btn = document.querySelector('[data-form="user"] button[type="submit"]'); if (btn) { btn.disabled = true; btn.textContent = "Saving…"; }
    api("users/" + u.id, changed).then(function () {
      if (roleChanged) changeRole(u, d.role);
      if (any) {
        Object.assign(u, changed);
        track("user_updated", Object.assign({ user_id: u.id }, changed));
        audit("user.updated", u.name, Object.keys(changed).sort().join(", "));
      }
      save();
      ui.dirty = false;
      ui.draft = { name: u.name, email: u.email, title: u.title, phone: u.phone, team: u.team, role: u.role };
      toast("Saved changes to " + u.name);
      render();
    });
  }
  function saveSettings() {
    var d = ui.draft;
    var s = { org_name: d.org_name.trim(), billing_email: d.billing_email.trim().toLowerCase(), default_role: d.default_role, session_timeout_hours: Number(d.session_timeout_hours), require_2fa: !!d.require_2fa, members_can_invite: !!d.members_can_invite, timezone: d.timezone };
    if (!s.org_name) return showErr("Organization name is required.");
    if (!validEmail(s.billing_email)) return showErr("Enter a valid billing email.");
    var btn = document.querySelector('[data-form="settings"] button[type="submit"]'); if (btn) { btn.disabled = true; btn.textContent = "Saving…"; }
    api("settings", s).then(function () {
      db.settings = s; save();
      track("settings_saved", s);
      audit("settings.saved", "Workspace", ""); save();
      ui.dirty = false; ui.draft = Object.assign({}, s);
      toast("Settings saved");
      render();
    });
  }

  document.addEventListener("click", function (ev) {
    var el = ev.target.closest ? ev.target.closest("[data-act]") : null;
    var inGs = ev.target.closest && ev.target.closest(".gsearch");
    if (!inGs && ui.gopen) { ui.gopen = false; if (!el) { render(); } }
    if (!el) {
      if ((ui.users.menu || ui.inv.menu) && !(ev.target.closest && ev.target.closest(".menu"))) { ui.users.menu = null; ui.inv.menu = null; render(); }
      if (ev.target.classList && ev.target.classList.contains("scrim") && ui.modal && ui.modal.type !== "discard") { ui.modal = null; render(); }
      return;
    }
    var act = el.getAttribute("data-act"), id = Number(el.getAttribute("data-id")), u = id ? userById(id) : null, f = ui.users;
    var inv = el.getAttribute("data-no") ? db.invoices.filter(function (i) { return i.no === el.getAttribute("data-no"); })[0] : null;
    if (act !== "menu") f.menu = null;
    if (act !== "inv-menu") ui.inv.menu = null;
    switch (act) {
      case "gpick":
        var h = el.getAttribute("data-hash"), no = el.getAttribute("data-inv");
        ui.gopen = false;
        if (no) { ui.inv.q = no; ui.inv.tab = "all"; }
        if (h === currentHash && !ui.dirty) { ui.gq = ""; render(); } else navigate(h);
        if (no) { ui.inv.q = no; render(); }
        return;
      case "menu": f.menu = f.menu === id ? null : id; break;
      case "inv-menu": var n = el.getAttribute("data-no"); ui.inv.menu = ui.inv.menu === n ? null : n; break;
      case "invite":
        if (seatsUsed() >= db.seats) { toast("All " + db.seats + " seats are in use. Deactivate someone or upgrade your plan.", "err"); return; }
        ui.modal = { type: "invite" }; break;
      case "send-invite":
        var m = ui.modal, email = (m.email || "").trim().toLowerCase(), name = (m.name || "").trim().replace(/\s+/g, " "), role = m.role || db.settings.default_role;
        if (!validEmail(email)) return showErr("Enter a valid email address.");
        if (!name) return showErr("Enter the person’s full name.");
        if (!m.team) return showErr("Choose a team.");
        if (db.users.some(function (x) { return x.email === email; })) return showErr("Someone with this email is already in the workspace.");
        if (seatsUsed() >= db.seats) return showErr("No seats left on your plan.");
        var nu = { id: db.nextId++, name: name, email: email, role: role, team: m.team, status: "invited", title: "", phone: "", last_active: "" };
        db.users.push(nu);
        track("user_invited", { email: email, name: name, role: role, team: m.team });
        audit("user.invited", name, role + ", " + m.team); save();
        ui.modal = null; toast("Invitation sent to " + email); break;
      case "clear-filters": f.q = ""; f.role = ""; f.status = ""; f.team = ""; f.page = 1; break;
      case "page": f.page = Number(el.getAttribute("data-p")); break;
      case "sel": f.sel[id] = el.checked; break;
      case "sel-page":
        var list = filteredUsers().slice((f.page - 1) * PAGE_SIZE, f.page * PAGE_SIZE);
        list.forEach(function (x) { f.sel[x.id] = el.checked; }); break;
      case "bulk-clear": f.sel = {}; break;
      case "bulk-deactivate":
        var ids = selectedIds().filter(function (i) { var x = userById(i); return x.role !== "owner" && x.status !== "deactivated"; });
        if (!ids.length) { toast("None of the selected users can be deactivated.", "err"); return; }
        ui.modal = { type: "bulk-deact", ids: ids }; break;
      case "confirm-bulk-deact":
        ui.modal.ids.forEach(function (i) { deactivate(userById(i)); });
        toast(ui.modal.ids.length + " users deactivated"); save();
        f.sel = {}; ui.modal = null; break;
      case "bulk-role":
        var sel = document.querySelector('[data-k="bulkrole"]'), r = sel ? sel.value : "";
        if (!r) { toast("Choose a role first.", "err"); return; }
        var cnt = 0, skipped = [];
        selectedIds().forEach(function (i) {
          var x = userById(i);
          if (x.role === "owner" || x.status === "deactivated") { skipped.push(x.name); return; }
          if (changeRole(x, r)) cnt++;
        });
        save(); f.sel = {};
        toast(cnt + " user" + (cnt === 1 ? "" : "s") + " changed to " + ROLE_LABEL[r] + (skipped.length ? " · skipped " + skipped.join(", ") : ""));
        break;
      case "edit-name": f.editing = id; break;
      case "m-view": navigate("#/users/" + id); return;
      case "m-role": ui.modal = { type: "role", id: id, role: u.role }; break;
      case "save-role":
        var target = userById(ui.modal.id);
        if (changeRole(target, ui.modal.role)) { save(); toast(target.name + " is now " + ROLE_LABEL[target.role]); }
        if (ui.draft && ui.route.name === "user") ui.draft.role = target.role;
        ui.modal = null; break;
      case "m-resend":
        track("invite_resent", { user_id: u.id, email: u.email }); toast("Invitation re-sent to " + u.email); return;
      case "m-deact": ui.modal = { type: "deact", id: id }; break;
      case "confirm-deact": var dx = userById(ui.modal.id); deactivate(dx); save(); toast(dx.name + " deactivated"); ui.modal = null; break;
      case "m-react":
        u.status = "active"; track("user_reactivated", { user_id: u.id, email: u.email }); audit("user.reactivated", u.name, ""); save(); toast(u.name + " reactivated"); break;
      case "m-delete": ui.modal = { type: "delete", id: id, typed: "" }; break;
      case "confirm-delete":
        var del = userById(ui.modal.id);
        if (ui.modal.typed !== del.name) return showErr("The name doesn’t match.");
        db.users = db.users.filter(function (x) { return x.id !== del.id; });
        delete f.sel[del.id];
        track("user_deleted", { user_id: del.id, email: del.email });
        audit("user.deleted", del.name, ""); save();
        ui.modal = null; toast(del.name + " was deleted");
        if (ui.route.name === "user") { ui.dirty = false; go("#/users"); return; }
        break;
      case "close-modal": ui.modal = null; break;
      case "keep-editing": ui.modal = null; ui.pendingHash = null; break;
      case "discard": ui.modal = null; ui.dirty = false; var ph = ui.pendingHash; ui.pendingHash = null; go(ph || "#/users"); return;
      case "back-users": navigate("#/users"); return;
      case "cancel-user":
        var cu = userById(ui.route.id); ui.draft = { name: cu.name, email: cu.email, title: cu.title, phone: cu.phone, team: cu.team, role: cu.role }; ui.dirty = false; break;
      case "new-team": ui.modal = { type: "team" }; break;
      case "create-team":
        var tn = (ui.modal.name || "").trim().replace(/\s+/g, " ");
        if (!tn) return showErr("Give the team a name.");
        if (db.teams.some(function (t) { return t.name.toLowerCase() === tn.toLowerCase(); })) return showErr("A team called " + tn + " already exists.");
        var lead = ui.modal.lead ? Number(ui.modal.lead) : null;
        db.teams.push({ name: tn, lead: lead, created: TODAY });
        var ev1 = { name: tn }; if (lead) ev1.lead = userById(lead).email;
        track("team_created", ev1); audit("team.created", tn, lead ? "lead " + userById(lead).name : ""); save();
        ui.modal = null; toast("Team " + tn + " created"); break;
      case "add-member": ui.modal = { type: "member", team: el.getAttribute("data-team") }; break;
      case "confirm-member":
        if (!ui.modal.user) return showErr("Choose a user.");
        var mu = userById(Number(ui.modal.user)); mu.team = ui.modal.team;
        track("team_member_added", { team: ui.modal.team, user_id: mu.id, email: mu.email });
        audit("team.member_added", ui.modal.team, mu.name); save();
        toast(mu.name + " added to " + ui.modal.team); ui.modal = null; break;
      case "inv-tab": ui.inv.tab = el.getAttribute("data-tab"); break;
      case "inv-paid": ui.modal = { type: "paid", inv: inv, date: TODAY, method: "bank_transfer", ref: "" }; break;
      case "confirm-paid":
        var pm = ui.modal, pi = pm.inv;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(pm.date || "")) return showErr("Enter the payment date.");
        if (pm.date > TODAY) return showErr("Payment date can’t be in the future.");
        if (pm.date < pi.issued) return showErr("Payment date can’t be before the invoice was issued (" + fmtDate(pi.issued) + ").");
        pi.status = "paid"; pi.paid_on = pm.date;
        var pe = { invoice: pi.no, amount: pi.amount, paid_on: pm.date, method: pm.method };
        if ((pm.ref || "").trim()) pe.reference = pm.ref.trim();
        track("invoice_marked_paid", pe);
        audit("invoice.paid", pi.no, money(pi.amount) + " by " + METHODS[pm.method].toLowerCase()); save();
        ui.modal = null; toast(pi.no + " marked as paid"); break;
      case "inv-remind":
        track("invoice_reminder_sent", { invoice: inv.no, email: inv.contact });
        audit("invoice.reminder", inv.no, inv.contact); save();
        toast("Reminder sent to " + inv.contact); break;
      case "inv-pdf": toast("Preparing " + inv.no + ".pdf…", "info"); break;
      case "inv-void": ui.modal = { type: "void", inv: inv }; break;
      case "confirm-void":
        ui.modal.inv.status = "void"; track("invoice_voided", { invoice: ui.modal.inv.no });
        audit("invoice.voided", ui.modal.inv.no, ""); save(); toast(ui.modal.inv.no + " voided"); ui.modal = null; break;
      case "audit-export": ui.modal = { type: "export" }; break;
      case "confirm-export":
        var xe = { action: ui.auditf.action || "all" };
        if (ui.auditf.from) xe.from = ui.auditf.from;
        if (ui.auditf.to) xe.to = ui.auditf.to;
        if (ui.auditf.actor.trim()) xe.actor = ui.auditf.actor.trim();
        if (xe.from && xe.to && xe.from > xe.to) return showErr("The start date is after the end date.");
        track("audit_exported", xe); ui.modal = null; toast("Export started — we’ll email the CSV shortly"); break;
      case "toggle-invite": ui.draft.members_can_invite = !ui.draft.members_can_invite; ui.dirty = true; break;
      case "reset-settings": ui.draft = Object.assign({}, db.settings); ui.dirty = false; break;
      default: return;
    }
    render();
  });

  window.addEventListener("beforeunload", function (ev) { if (ui.dirty) { ev.preventDefault(); ev.returnValue = ""; } });
  if (!location.hash || location.hash === "#" || location.hash === "#/") { currentHash = "#/users"; history.replaceState(null, "", "#/users"); }
  go(location.hash);
})();
