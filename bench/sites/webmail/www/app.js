/* Larkmail web client — hand-written components, history routing. */
(function () {
  'use strict';

  var TODAY = '2026-11-28';            // fixed "today" for the demo workspace
  var ME = { name: 'Priya Raman', email: 'priya@harborfinch.com' };
  var STORE_KEY = 'larkmail.state.v4';
  var MAX_ATTACH = 25 * 1024 * 1024;

  var P = {
    dana: { name: 'Dana Whitfield', email: 'dana.whitfield@northwind.io' },
    ben: { name: 'Ben Carter', email: 'ben.carter@northwind.io' },
    tom: { name: 'Tom Okafor', email: 'tom@okafor-design.co' },
    jenna: { name: 'Jenna Ruiz', email: 'jenna.ruiz@brightpath.org' },
    mercer: { name: 'Dr. Alan Mercer', email: 'alan.mercer@cityclinic.health' },
    clinic: { name: 'City Clinic Scheduling', email: 'appointments@cityclinic.health' },
    sofia: { name: 'Sofia Lindqvist', email: 'sofia@lindqvist.se' },
    anita: { name: 'Anita Raman', email: 'anita.raman@fastmail.com' },
    kevin: { name: 'Kevin Zhou', email: 'kevin.zhou@acme-logistics.com' },
    rachel: { name: 'Rachel Adams', email: 'rachel.adams@acme-logistics.com' },
    marcus: { name: 'Marcus Lee', email: 'marcus@harborfinch.com' },
    daniel: { name: 'Daniel Moss', email: 'daniel.moss@harborfinch.com' },
    hotel: { name: 'Harbourview Hotel', email: 'reservations@harbourview-hotel.com' },
    cloud: { name: 'CloudNest Billing', email: 'billing@cloudnest.io' },
    ticket: { name: 'Ticketline', email: 'orders@ticketline.com' },
    fly: { name: 'FlyScandia', email: 'receipts@flyscandia.com' },
    urban: { name: 'Urban Threads', email: 'hello@urbanthreads.shop' },
    readwise: { name: 'Readwise', email: 'digest@readwise.io' },
    me: ME
  };
  var CONTACT_KEYS = ['dana', 'ben', 'tom', 'jenna', 'mercer', 'sofia', 'anita', 'kevin', 'rachel', 'marcus', 'daniel'];

  var FILES = [
    { name: 'Q4-budget.xlsx', size: 86016 },
    { name: 'Northwind-proposal-v3.pdf', size: 1258291 },
    { name: 'offsite-agenda.docx', size: 47104 },
    { name: 'headshot.jpg', size: 2516582 },
    { name: 'lease-renewal-signed.pdf', size: 389120 },
    { name: 'team-photo.png', size: 5347737 },
    { name: 'site-walkthrough.mov', size: 50331648 }
  ];

  function m(from, to, date, body, extra) {
    extra = extra || {};
    return { from: P[from], to: to.map(function (k) { return P[k]; }), cc: (extra.cc || []).map(function (k) { return P[k]; }),
      date: date, body: body, attachments: extra.att || [] };
  }
  function att(name, size) { return { name: name, size: size }; }

  function seed() {
    var T = [
      { id: 4121, box: 'inbox', subject: 'Northwind Q1 proposal – feedback', labels: ['Clients'], starred: false, unread: true, messages: [
        m('me', ['dana'], '2026-11-24T16:40', 'Hi Dana,\n\nAttached is v3 of the Q1 proposal. Happy to walk through it whenever suits.\n\nBest,\nPriya', { att: [att('Northwind-proposal-v3.pdf', 1258291)] }),
        m('dana', ['me'], '2026-11-28T09:14', 'Hi Priya,\n\nThanks for this. Comments are in the attached PDF — mostly about the rollout timeline in section 4. Could you send a revised timeline early next week? Ben will own the ops side.\n\nDana', { cc: ['ben'], att: [att('proposal-comments.pdf', 412000)] })] },
      { id: 4120, box: 'inbox', subject: 'Invoice #AC-2291 for November', labels: [], starred: false, unread: true, messages: [
        m('kevin', ['me'], '2026-11-28T08:02', 'Hello Priya,\n\nPlease find attached invoice AC-2291 for November freight services, total $4,380.00, due December 28.\n\nRegards,\nKevin Zhou\nAcme Logistics – Accounts', { att: [att('invoice-AC-2291.pdf', 98000)] })] },
      { id: 4119, box: 'inbox', subject: 'Logo concepts round 2', labels: ['Clients'], starred: true, unread: false, messages: [
        m('tom', ['me'], '2026-11-27T15:22', 'Hey Priya,\n\nRound 2 is attached — I pushed option B further and added a monochrome variant. Let me know which direction you want before Friday.\n\nTom', { att: [att('logo-concepts-r2.pdf', 3400000)] })] },
      { id: 4118, box: 'inbox', subject: 'Thanksgiving photos!', labels: ['Family'], starred: false, unread: true, messages: [
        m('anita', ['me'], '2026-11-27T11:05', 'Here are a few from yesterday. Your dad insists the blurry one is the best.\n\nLove, Mom', { att: [att('IMG_2041.jpg', 2100000), att('IMG_2044.jpg', 1900000), att('IMG_2050.jpg', 2300000)] })] },
      { id: 4117, box: 'inbox', subject: 'Your reservation is confirmed – Dec 18–21', labels: ['Travel'], starred: false, unread: false, messages: [
        m('hotel', ['me'], '2026-11-26T19:48', 'Dear Ms. Raman,\n\nThank you for choosing Harbourview Hotel, Stockholm. Your reservation is confirmed.\n\nConfirmation: HV-558120\nCheck-in: Friday, December 18, 2026\nCheck-out: Monday, December 21, 2026\nRoom: Deluxe King, harbour view\n\nWe look forward to welcoming you.', { att: [att('HV-558120-confirmation.pdf', 156000)] })] },
      { id: 4116, box: 'inbox', subject: 'Volunteer schedule for December', labels: [], starred: false, unread: false, messages: [
        m('jenna', ['me', 'marcus'], '2026-11-25T10:30', 'Hi both,\n\nThe December food bank schedule is below. Can you each tell me which Saturdays work — the 5th, 12th or 19th?\n\nThanks!\nJenna')] },
      { id: 4115, box: 'inbox', subject: 'Your CloudNest receipt', labels: ['Receipts'], starred: false, unread: false, messages: [
        m('cloud', ['me'], '2026-11-24T06:00', 'Receipt #CN-99310\nCloudNest Team plan, monthly — $48.00\nCharged to Visa ending 4417 on November 24, 2026.')] },
      { id: 4114, box: 'inbox', subject: 'Appointment reminder: Dr. Alan Mercer, Dec 3 at 10:30 AM', labels: [], starred: false, unread: false, messages: [
        m('clinic', ['me'], '2026-11-23T09:00', 'This is a reminder of your appointment with Dr. Alan Mercer on Thursday, December 3 at 10:30 AM, City Clinic, 2nd floor.\n\nTo reschedule, reply to this email or call (415) 555-0144.')] },
      { id: 4113, box: 'inbox', subject: 'Intro: Ben Carter (Northwind ops)', labels: ['Clients'], starred: false, unread: false, messages: [
        m('dana', ['me', 'ben'], '2026-11-21T13:12', 'Priya, meet Ben — he runs operations at Northwind and will be your day-to-day contact for the rollout. Ben, Priya leads product at Harbor & Finch.\n\nI will let you two take it from here.\nDana')] },
      { id: 4112, box: 'inbox', subject: 'Stockholm trip — restaurant ideas', labels: ['Travel'], starred: true, unread: false, messages: [
        m('sofia', ['me'], '2026-11-20T20:17', 'Hej Priya!\n\nFor your December trip: Rosendals Trädgård for lunch, Ekstedt if you want something fancy, and Meatballs for the People on Södermalm. Tell me which nights you are free!\n\nSofia')] },
      { id: 4111, box: 'inbox', subject: 'Your tickets: The National, Jan 16', labels: [], starred: false, unread: false, messages: [
        m('ticket', ['me'], '2026-11-18T12:44', 'Order TL-4471902\nThe National — Chase Center, Saturday January 16, 2027, 8:00 PM\n2 × Section 112, Row F\nTotal: $238.50', { att: [att('tickets-TL-4471902.pdf', 220000)] })] },
      { id: 4110, box: 'inbox', subject: 'Shipping delay on order 77812', labels: [], starred: false, unread: false, messages: [
        m('me', ['rachel'], '2026-11-13T09:20', 'Hi Rachel,\n\nOrder 77812 was due on the 10th and has not arrived. Could you check on it?\n\nPriya'),
        m('rachel', ['me'], '2026-11-14T11:02', 'Hi Priya, sorry about this — the container was held at customs. New ETA is November 20.', { cc: ['kevin'] }),
        m('rachel', ['me'], '2026-11-15T16:35', 'Update: customs released it today. We can offer a 10% credit on the order for the delay.', { cc: ['kevin'] })] },
      { id: 4109, box: 'inbox', subject: 'Lunch next week?', labels: [], starred: false, unread: false, messages: [
        m('marcus', ['me'], '2026-11-12T12:01', 'Tuesday or Wednesday at the ramen place? My treat this time.')] },
      { id: 4108, box: 'sent', subject: 'Brand refresh brief', labels: ['Clients'], starred: false, unread: false, messages: [
        m('me', ['tom'], '2026-11-10T17:30', 'Hi Tom,\n\nBrief for the brand refresh attached. First concepts by the 20th would be great.\n\nPriya', { att: [att('brand-refresh-brief.pdf', 640000)] })] },
      { id: 4106, box: 'archive', subject: 'Invoice #AC-2240 for October', labels: ['Receipts'], starred: false, unread: false, messages: [
        m('kevin', ['me'], '2026-10-29T08:10', 'Hello Priya,\n\nAttached is invoice AC-2240 for October, total $3,915.00.\n\nKevin Zhou', { att: [att('invoice-AC-2240.pdf', 97000)] })] },
      { id: 4105, box: 'archive', subject: 'Flight receipt: SFO → ARN, Dec 17', labels: ['Travel'], starred: false, unread: false, messages: [
        m('fly', ['me'], '2026-10-20T22:41', 'Booking ref QX7L2M\nSan Francisco (SFO) → Stockholm Arlanda (ARN), Thursday December 17, 2026\nFare paid: $1,186.40')] },
      { id: 4104, box: 'archive', subject: 'Offsite venue shortlist', labels: [], starred: false, unread: false, messages: [
        m('marcus', ['me', 'daniel'], '2026-10-14T14:55', 'Three options for the January offsite attached. I lean toward the Sausalito one.', { att: [att('venues.pdf', 1800000)] })] },
      { id: 4103, box: 'trash', subject: 'Flash sale: 40% off everything', labels: [], starred: false, unread: false, messages: [
        m('urban', ['me'], '2026-11-22T07:00', 'This weekend only — 40% off sitewide with code FLASH40.')] },
      { id: 4102, box: 'trash', subject: 'Your weekly Readwise digest', labels: [], starred: false, unread: false, messages: [
        m('readwise', ['me'], '2026-11-19T06:30', 'Your top highlights this week, from 4 books and 11 articles.')] }
    ];
    return {
      threads: T,
      drafts: [{ id: 4101, to: [P.marcus], cc: [], subject: 'Offsite agenda', body: 'Hi Marcus,\n\nHere is a first pass at the agenda for January. Day 1 is strategy, day 2 is team time.\n\n', attachments: [], date: '2026-11-26T18:05' }],
      labels: ['Clients', 'Family', 'Receipts', 'Travel'],
      settings: { density: 'comfortable', page_size: 50, signature: 'Priya Raman\nHead of Product, Harbor & Finch' },
      vacation: { enabled: false, start: '', hasEnd: false, end: '', subject: '', message: '', contacts_only: false },
      nextId: 4122
    };
  }

  var S;
  function load() {
    try { S = JSON.parse(localStorage.getItem(STORE_KEY)); } catch (e) { S = null; }
    if (!S || !S.threads) { S = seed(); save(); }
  }
  function save() { localStorage.setItem(STORE_KEY, JSON.stringify(S)); }

  function logEvent(name, data) {
    var body = { event: name };
    Object.keys(data || {}).forEach(function (k) { body[k] = data[k]; });
    try {
      fetch('/__events', { method: 'POST', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).catch(function () {});
    } catch (e) { /* offline */ }
  }

  // ---------- helpers ----------
  function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  var MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  function fmtShort(dt) {
    var d = dt.slice(0, 10), y = +dt.slice(0, 4), mo = +dt.slice(5, 7), day = +dt.slice(8, 10);
    if (d === TODAY) return fmtTime(dt);
    if (y === +TODAY.slice(0, 4)) return MONTHS[mo - 1] + ' ' + day;
    return mo + '/' + day + '/' + String(y).slice(2);
  }
  function fmtTime(dt) {
    var h = +dt.slice(11, 13), mi = dt.slice(14, 16);
    return ((h % 12) || 12) + ':' + mi + ' ' + (h < 12 ? 'AM' : 'PM');
  }
  function fmtLong(dt) { return MONTHS[+dt.slice(5, 7) - 1] + ' ' + (+dt.slice(8, 10)) + ', ' + dt.slice(0, 4) + ', ' + fmtTime(dt); }
  function fmtSize(b) { return b >= 1048576 ? (b / 1048576).toFixed(1) + ' MB' : Math.max(1, Math.round(b / 1024)) + ' KB'; }
  function lc(s) { return String(s || '').trim().toLowerCase(); }
  function isEmail(s) { return /^[^\s@<>,;]+@[^\s@<>,;]+\.[a-z]{2,}$/i.test(String(s).trim()); }
  function uniqSorted(list) { var o = {}; list.forEach(function (x) { o[x] = 1; }); return Object.keys(o).sort(); }
  function nowStamp() { return TODAY + 'T' + '11:30'; }
  function lastDate(t) { return t.messages[t.messages.length - 1].date; }
  function threadById(id) { id = +id; for (var i = 0; i < S.threads.length; i++) if (S.threads[i].id === id) return S.threads[i]; return null; }
  function isMe(p) { return lc(p.email) === ME.email; }
  function findContact(email) {
    email = lc(email);
    for (var k in P) if (lc(P[k].email) === email) return P[k];
    return { name: email, email: email };
  }
  var ICON = {
    search: '<svg viewBox="0 0 24 24"><path d="M15.5 14h-.8l-.3-.3A6.5 6.5 0 1 0 9.5 16a6.5 6.5 0 0 0 4.2-1.6l.3.3v.8l5 5 1.5-1.5-5-5zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9z"/></svg>',
    tune: '<svg viewBox="0 0 24 24"><path d="M3 17v2h6v-2H3zM3 5v2h10V5H3zm10 16v-2h8v-2h-8v-2h-2v6h2zM7 9v2H3v2h4v2h2V9H7zm14 4v-2H11v2h10zm-6-4h2V7h4V5h-4V3h-2v6z"/></svg>',
    gear: '<svg viewBox="0 0 24 24"><path d="M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7 7 0 0 0-1.7-1L15 3h-4l-.3 2.9a7 7 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7 7 0 0 0 1.7 1L11 21h4l.3-2.9a7 7 0 0 0 1.7-1l2.5 1 2-3.5-2.1-1.6zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z"/></svg>',
    help: '<svg viewBox="0 0 24 24"><path d="M11 18h2v-2h-2v2zm1-16a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm0-14a4 4 0 0 0-4 4h2a2 2 0 1 1 4 0c0 2-3 1.8-3 5h2c0-2.3 3-2.5 3-5a4 4 0 0 0-4-4z"/></svg>',
    archive: '<svg viewBox="0 0 24 24"><path d="M20.5 5.2 19.1 3.5A1.5 1.5 0 0 0 18 3H6c-.5 0-.9.2-1.2.5L3.5 5.2C3.2 5.6 3 6 3 6.5V19a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6.5c0-.5-.2-.9-.5-1.3zM12 17.5 6.5 12H10v-2h4v2h3.5L12 17.5zM5.1 5l.8-1h12l.9 1H5.1z"/></svg>',
    trash: '<svg viewBox="0 0 24 24"><path d="M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z"/></svg>',
    label: '<svg viewBox="0 0 24 24"><path d="M17.6 5.8A2 2 0 0 0 16 5H5a2 2 0 0 0-2 2v10c0 1.1.9 2 2 2h11c.7 0 1.3-.3 1.6-.8L22 12l-4.4-6.2z"/></svg>',
    inbox: '<svg viewBox="0 0 24 24"><path d="M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm0 12h-4a3 3 0 0 1-6 0H5V5h14v10z"/></svg>',
    back: '<svg viewBox="0 0 24 24"><path d="M20 11H7.8l5.6-5.6L12 4l-8 8 8 8 1.4-1.4L7.8 13H20v-2z"/></svg>',
    clip: '<svg viewBox="0 0 24 24"><path d="M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6h-1.5z"/></svg>',
    close: '<svg viewBox="0 0 24 24"><path d="M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z"/></svg>',
    pen: '<svg viewBox="0 0 24 24" width="20" height="20"><path d="M3 17.2V21h3.8l11-11-3.8-3.8-11 11zM20.7 7a1 1 0 0 0 0-1.4l-2.3-2.3a1 1 0 0 0-1.4 0l-1.8 1.8 3.8 3.8L20.7 7z"/></svg>',
    refresh: '<svg viewBox="0 0 24 24"><path d="M17.6 6.4A8 8 0 1 0 19.7 14h-2.1a6 6 0 1 1-1.4-6.2L13 11h7V4l-2.4 2.4z"/></svg>',
    bell: '<svg viewBox="0 0 24 24"><path d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1l-2-2z"/></svg>',
    plus: '<svg viewBox="0 0 24 24"><path d="M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z"/></svg>'
  };

  // ---------- routing ----------
  function go(path) { history.pushState({}, '', path); route(); }
  window.addEventListener('popstate', route);
  document.addEventListener('click', function (e) {
    var a = e.target.closest('a[data-nav]');
    if (a && !e.metaKey && !e.ctrlKey) { e.preventDefault(); closePopovers(); go(a.getAttribute('href')); }
  });

  var view = { name: 'inbox', selected: {}, listIds: [] };
  var FOLDERS = [
    { key: 'inbox', label: 'Inbox' }, { key: 'starred', label: 'Starred' }, { key: 'sent', label: 'Sent' },
    { key: 'drafts', label: 'Drafts' }, { key: 'archive', label: 'Archive' }, { key: 'trash', label: 'Trash' }
  ];

  function route() {
    var p = decodeURIComponent(location.pathname).replace(/\/+$/, '') || '/inbox';
    if (p === '/' || p === '/index.html') p = '/inbox';
    view.selected = {};
    closePopovers();
    var mm;
    if ((mm = p.match(/^\/thread\/(\d+)$/))) { view.name = 'thread'; view.threadId = +mm[1]; renderThread(); }
    else if ((mm = p.match(/^\/label\/(.+)$/))) { view.name = 'label'; view.label = mm[1]; renderList(); }
    else if ((mm = p.match(/^\/search\/(.*)$/))) { view.name = 'search'; view.query = mm[1]; renderList(); }
    else if (p === '/settings') { view.name = 'settings'; renderSettings(); }
    else {
      var key = p.slice(1);
      view.name = FOLDERS.some(function (f) { return f.key === key; }) ? key : 'inbox';
      if (view.name === 'drafts') renderDrafts(); else renderList();
    }
    renderSidebar();
    var si = $('#q'); if (si && view.name !== 'search') si.value = ''; else if (si) si.value = view.query;
    window.scrollTo(0, 0);
  }

  // ---------- header ----------
  function renderHeader() {
    $('#topbar').innerHTML =
      '<a class="brand" href="/inbox" data-nav><span class="mark">✉</span>Larkmail</a>' +
      '<div class="searchwrap"><form class="searchbox" role="search" id="searchform" autocomplete="off">' +
      '<button class="icon-btn" type="submit" aria-label="Search">' + ICON.search + '</button>' +
      '<input id="q" type="text" aria-label="Search mail" placeholder="Search mail">' +
      '<button class="icon-btn" type="button" id="advbtn" aria-label="Show search options" aria-expanded="false">' + ICON.tune + '</button>' +
      '</form><div id="advroot"></div></div>' +
      '<div class="right"><button class="icon-btn" aria-label="Support">' + ICON.help + '</button>' +
      '<a class="icon-btn" href="/settings" data-nav aria-label="Settings">' + ICON.gear + '</a>' +
      '<button class="avatar" aria-label="Google Account: Priya Raman">PR</button></div>';
    $('.avatar').setAttribute('aria-label', 'Account: Priya Raman (priya@harborfinch.com)');
    $('#searchform').addEventListener('submit', function (e) { e.preventDefault(); runSearch($('#q').value); });
    $('#advbtn').addEventListener('click', function () { if ($('#advroot').innerHTML) closeAdv(); else openAdv(); });
  }
  function closeAdv() { $('#advroot').innerHTML = ''; $('#advbtn').setAttribute('aria-expanded', 'false'); }
  function openAdv() {
    $('#advbtn').setAttribute('aria-expanded', 'true');
    var opts = '<option value="">All Mail</option>' + ['inbox', 'starred', 'sent', 'archive', 'trash'].map(function (f) { return '<option value="' + f + '">' + f.charAt(0).toUpperCase() + f.slice(1) + '</option>'; }).join('');
    $('#advroot').innerHTML = '<div class="adv" role="dialog" aria-label="Search options">' +
      '<div class="row"><span>From</span><input type="text" id="a-from"></div>' +
      '<div class="row"><span>To</span><input type="text" id="a-to"></div>' +
      '<div class="row"><span>Subject</span><input type="text" id="a-subj"></div>' +
      '<div class="row"><span>Has the words</span><input type="text" id="a-words"></div>' +
      '<div class="row"><label for="a-after">Date after</label><input type="date" id="a-after"></div>' +
      '<div class="row"><label for="a-before">Date before</label><input type="date" id="a-before"></div>' +
      '<div class="row"><label for="a-in">Search in</label><select id="a-in">' + opts + '</select></div>' +
      '<div class="row"><span></span><label><input type="checkbox" id="a-att"> Has attachment</label></div>' +
      '<div class="actions"><button type="button" class="btn" id="a-clear">Clear filter</button><button type="button" class="btn primary" id="a-go">Search</button></div></div>';
    $('#a-clear').addEventListener('click', function () { $all('#advroot input[type=text],#advroot input[type=date]').forEach(function (i) { i.value = ''; }); $('#a-att').checked = false; $('#a-in').value = ''; });
    $('#a-go').addEventListener('click', function () {
      var parts = [];
      function q(v) { return /\s/.test(v) ? '"' + v + '"' : v; }
      var f = $('#a-from').value.trim(), t = $('#a-to').value.trim(), s = $('#a-subj').value.trim(), w = $('#a-words').value.trim();
      if (f) parts.push('from:' + q(f));
      if (t) parts.push('to:' + q(t));
      if (s) parts.push('subject:' + q(s));
      if (w) parts.push(w);
      if ($('#a-in').value) parts.push('in:' + $('#a-in').value);
      if ($('#a-after').value) parts.push('after:' + $('#a-after').value.replace(/-/g, '/'));
      if ($('#a-before').value) parts.push('before:' + $('#a-before').value.replace(/-/g, '/'));
      if ($('#a-att').checked) parts.push('has:attachment');
      closeAdv();
      runSearch(parts.join(' '));
    });
  }

  // ---------- search ----------
  function normDate(v) {
    var mm;
    if ((mm = v.match(/^(\d{4})[\/\-.](\d{1,2})[\/\-.](\d{1,2})$/))) return mm[1] + '-' + ('0' + mm[2]).slice(-2) + '-' + ('0' + mm[3]).slice(-2);
    if ((mm = v.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) return mm[3] + '-' + ('0' + mm[1]).slice(-2) + '-' + ('0' + mm[2]).slice(-2);
    return null;
  }
  function parseQuery(q) {
    var crit = {}, terms = [], re = /([a-z]+):(?:"([^"]*)"|(\S+))|"([^"]*)"|(\S+)/gi, mm;
    while ((mm = re.exec(q))) {
      if (mm[1]) {
        var k = mm[1].toLowerCase(), v = (mm[2] !== undefined ? mm[2] : mm[3]).trim();
        if (['from', 'to', 'subject', 'label', 'in'].indexOf(k) >= 0) crit[k] = v.toLowerCase();
        else if (k === 'has' && lc(v) === 'attachment') crit.has_attachment = true;
        else if (k === 'is') crit.is = v.toLowerCase();
        else if ((k === 'before' || k === 'after') && normDate(v)) crit[k] = normDate(v);
        else terms.push(mm[0]);
      } else terms.push(mm[4] !== undefined ? mm[4] : mm[5]);
    }
    if (terms.length) crit.terms = terms.join(' ').toLowerCase().replace(/\s+/g, ' ').trim();
    return crit;
  }
  function runSearch(q) {
    q = String(q || '').trim();
    if (!q) return;
    var crit = parseQuery(q);
    logEvent('search_run', crit);
    go('/search/' + encodeURIComponent(q));
  }
  function personText(p) { return lc(p.name) + ' ' + lc(p.email); }
  function matches(t, c) {
    if (c.in === 'trash') { if (t.box !== 'trash') return false; }
    else if (t.box === 'trash') return false;
    if (c.in === 'inbox' && t.box !== 'inbox') return false;
    if (c.in === 'archive' && t.box !== 'archive') return false;
    if (c.in === 'starred' && !t.starred) return false;
    if (c.in === 'sent' && !t.messages.some(function (x) { return isMe(x.from); })) return false;
    if (c.from && !t.messages.some(function (x) { return personText(x.from).indexOf(c.from) >= 0; })) return false;
    if (c.to && !t.messages.some(function (x) { return x.to.concat(x.cc).some(function (p) { return personText(p).indexOf(c.to) >= 0; }); })) return false;
    if (c.subject && lc(t.subject).indexOf(c.subject) < 0) return false;
    if (c.label && !t.labels.some(function (l) { return lc(l) === c.label; })) return false;
    if (c.has_attachment && !t.messages.some(function (x) { return x.attachments.length; })) return false;
    if (c.is === 'starred' && !t.starred) return false;
    if (c.is === 'unread' && !t.unread) return false;
    if (c.is === 'read' && t.unread) return false;
    if (c.before && !t.messages.some(function (x) { return x.date.slice(0, 10) < c.before; })) return false;
    if (c.after && !t.messages.some(function (x) { return x.date.slice(0, 10) > c.after; })) return false;
    if (c.terms) {
      var hay = lc(t.subject) + ' ' + t.messages.map(function (x) {
        return personText(x.from) + ' ' + lc(x.body) + ' ' + x.attachments.map(function (a) { return lc(a.name); }).join(' ');
      }).join(' ');
      if (!c.terms.split(' ').every(function (w) { return hay.indexOf(w) >= 0; })) return false;
    }
    return true;
  }

  // ---------- sidebar ----------
  var LABEL_COLORS = { Clients: '#2f6fe4', Family: '#d9467a', Receipts: '#1e9b6b', Travel: '#e68a00' };
  function renderSidebar() {
    var unread = S.threads.filter(function (t) { return t.box === 'inbox' && t.unread; }).length;
    var cur = view.name;
    var html = '<button class="compose-btn" id="composebtn">' + ICON.pen + ' Compose</button><ul class="navlist">';
    FOLDERS.forEach(function (f) {
      var cnt = f.key === 'inbox' && unread ? unread : (f.key === 'drafts' && S.drafts.length ? S.drafts.length : '');
      html += '<li><a href="/' + f.key + '" data-nav class="' + (cur === f.key ? 'active' : '') + '"' + (cur === f.key ? ' aria-current="page"' : '') + '>' + f.label +
        (cnt ? '<span class="count" aria-hidden="true">' + cnt + '</span>' : '') + '</a></li>';
    });
    html += '</ul><div class="side-head"><span>Labels</span><button class="icon-btn" id="newlabel" aria-label="Create new label">' + ICON.plus + '</button></div><ul class="navlist">';
    S.labels.forEach(function (l) {
      var on = cur === 'label' && lc(view.label) === lc(l);
      html += '<li><a href="/label/' + encodeURIComponent(l.toLowerCase()) + '" data-nav class="' + (on ? 'active' : '') + '"><span class="dot" style="background:' + (LABEL_COLORS[l] || '#8a94a8') + '"></span>' + esc(l) + '</a></li>';
    });
    html += '</ul>';
    $('#sidebar').innerHTML = html;
    $('#composebtn').addEventListener('click', function () { openCompose({ kind: 'new' }); });
    $('#newlabel').addEventListener('click', openNewLabel);
  }

  function openNewLabel() {
    $('#modal-root').innerHTML = '<div class="modal-back"><div class="modal" role="dialog" aria-modal="true" aria-label="New label">' +
      '<h2>New label</h2><div>Please enter a new label name:</div><input type="text" id="nl-name" maxlength="40">' +
      '<div class="merr" id="nl-err" role="alert"></div>' +
      '<div class="ma"><button class="btn" id="nl-cancel">Cancel</button><button class="btn primary" id="nl-create">Create</button></div></div></div>';
    $('#nl-name').focus();
    $('#nl-cancel').addEventListener('click', function () { $('#modal-root').innerHTML = ''; });
    function create() {
      var name = $('#nl-name').value.trim().replace(/\s+/g, ' ');
      if (!name) { $('#nl-err').textContent = 'Please enter a label name.'; return; }
      if (S.labels.some(function (l) { return lc(l) === lc(name); })) { $('#nl-err').textContent = 'The label name you have chosen already exists. Please try another name.'; return; }
      if (/[\/\\]/.test(name)) { $('#nl-err').textContent = 'Label names can\u2019t contain slashes.'; return; }
      S.labels.push(name); S.labels.sort(function (a, b) { return a.localeCompare(b); }); save();
      logEvent('label_created', { name: name });
      $('#modal-root').innerHTML = '';
      toast('Label "' + name + '" created.');
      renderSidebar();
      if (view.name === 'thread') renderThread();
    }
    $('#nl-create').addEventListener('click', create);
    $('#nl-name').addEventListener('keydown', function (e) { if (e.key === 'Enter') create(); });
  }

  // ---------- toasts ----------
  function toast(text, undo) {
    var el = document.createElement('div');
    el.className = 'toast';
    el.innerHTML = '<span>' + esc(text) + '</span>' + (undo ? '<button type="button">Undo</button>' : '');
    $('#toasts').innerHTML = '';
    $('#toasts').appendChild(el);
    var timer = setTimeout(function () { el.remove(); }, 6000);
    if (undo) el.querySelector('button').addEventListener('click', function () { clearTimeout(timer); el.remove(); undo(); });
  }

  // ---------- thread actions ----------
  // Archive/delete/move are recorded right away; Undo in the toast records a separate *_undone event.
  function moveThreads(ids, box, how) {
    ids = ids.map(Number).sort(function (a, b) { return a - b; });
    var prev = {};
    ids.forEach(function (id) { var t = threadById(id); prev[id] = t.box; t.box = box; });
    save();
    var n = ids.length, what = n === 1 ? 'Conversation' : n + ' conversations';
    var evt = how === 'archive' ? 'threads_archived' : how === 'delete' ? 'threads_deleted' : 'threads_moved';
    var data = { threads: ids };
    if (how === 'move') data.to = box;
    logEvent(evt, data);
    var msg = how === 'archive' ? what + ' archived.' : how === 'delete' ? what + ' moved to Trash.' : what + ' moved to Inbox.';
    toast(msg, function () {
      ids.forEach(function (id) { threadById(id).box = prev[id]; });
      save();
      logEvent(how === 'archive' ? 'archive_undone' : how === 'delete' ? 'delete_undone' : 'move_undone', { threads: ids });
      toast('Action undone.');
      refresh();
    });
    if (view.name === 'thread') go(backPath()); else refresh();
  }
  function setStar(id, on) {
    var t = threadById(id); if (!t || t.starred === on) return;
    t.starred = on; save();
    logEvent('thread_starred', { thread: t.id, starred: on });
    refresh();
  }
  function applyLabels(ids, wanted) {
    ids = ids.map(Number).sort(function (a, b) { return a - b; });
    var added = [], removed = [];
    S.labels.forEach(function (l) {
      var all = ids.every(function (id) { return threadById(id).labels.indexOf(l) >= 0; });
      var any = ids.some(function (id) { return threadById(id).labels.indexOf(l) >= 0; });
      if (wanted[l] === true && !all) added.push(l);
      if (wanted[l] === false && any) removed.push(l);
    });
    if (!added.length && !removed.length) return;
    ids.forEach(function (id) {
      var t = threadById(id);
      t.labels = t.labels.filter(function (l) { return removed.indexOf(l) < 0; });
      added.forEach(function (l) { if (t.labels.indexOf(l) < 0) t.labels.push(l); });
      t.labels.sort();
    });
    save();
    logEvent('threads_labelled', { threads: ids, added: added.sort(), removed: removed.sort() });
    toast(added.length ? 'Label "' + added.join('", "') + '" applied.' : 'Label removed.');
    refresh();
  }
  function refresh() {
    if (view.name === 'thread') renderThread();
    else if (view.name === 'drafts') renderDrafts();
    else if (view.name === 'settings') return;
    else renderList(true);
    renderSidebar();
  }
  function backPath() {
    var t = threadById(view.threadId);
    return view.from || (t && t.box === 'archive' ? '/archive' : t && t.box === 'trash' ? '/trash' : '/inbox');
  }

  function closePopovers() { $all('.popover').forEach(function (p) { p.remove(); }); }
  document.addEventListener('mousedown', function (e) {
    if (!e.target.closest('.popover') && !e.target.closest('[data-pop]')) closePopovers();
    if ($('#advroot') && $('#advroot').innerHTML && !e.target.closest('.searchwrap')) closeAdv();
  });
  function openLabelMenu(anchor, ids) {
    closePopovers();
    var pop = document.createElement('div');
    pop.className = 'popover';
    pop.setAttribute('role', 'dialog');
    pop.setAttribute('aria-label', 'Label as');
    var html = '<div class="ph">Label as:</div>';
    S.labels.forEach(function (l, i) {
      var all = ids.every(function (id) { return threadById(id).labels.indexOf(l) >= 0; });
      html += '<label><input type="checkbox" data-l="' + esc(l) + '"' + (all ? ' checked' : '') + '> ' + esc(l) + '</label>';
    });
    html += '<div class="pa"><button type="button" class="btn primary">Apply</button></div>';
    pop.innerHTML = html;
    anchor.parentNode.appendChild(pop);
    pop.style.top = (anchor.offsetTop + anchor.offsetHeight + 4) + 'px';
    pop.style.left = anchor.offsetLeft + 'px';
    var initial = {};
    $all('input', pop).forEach(function (c) { initial[c.dataset.l] = c.checked; });
    pop.querySelector('.pa button').addEventListener('click', function () {
      var wanted = {};
      $all('input', pop).forEach(function (c) { if (c.checked !== initial[c.dataset.l]) wanted[c.dataset.l] = c.checked; });
      pop.remove();
      applyLabels(ids, wanted);
    });
  }

  // ---------- list views ----------
  function listThreads() {
    var n = view.name, arr;
    if (n === 'search') { var c = parseQuery(view.query); arr = S.threads.filter(function (t) { return matches(t, c); }); }
    else arr = S.threads.filter(function (t) {
      if (n === 'inbox') return t.box === 'inbox';
      if (n === 'archive') return t.box === 'archive';
      if (n === 'trash') return t.box === 'trash';
      if (n === 'starred') return t.starred && t.box !== 'trash';
      if (n === 'sent') return t.box !== 'trash' && t.messages.some(function (x) { return isMe(x.from); });
      if (n === 'label') return t.box !== 'trash' && t.labels.some(function (l) { return lc(l) === lc(view.label); });
      return false;
    });
    return arr.sort(function (a, b) { return lastDate(b) < lastDate(a) ? -1 : 1; });
  }
  function senderLine(t) {
    if (view.name === 'sent') return 'To: ' + t.messages[0].to.map(function (p) { return p.name.split(' ')[0]; }).join(', ');
    var names = [];
    t.messages.forEach(function (x) { var nm = isMe(x.from) ? 'me' : x.from.name; if (names.indexOf(nm) < 0) names.push(nm); });
    return names.join(', ') + (t.messages.length > 1 ? ' <span class="snip">' + t.messages.length + '</span>' : '');
  }
  function titleFor() {
    if (view.name === 'search') return 'Search results <small>for “' + esc(view.query) + '”</small>';
    if (view.name === 'label') { var l = S.labels.filter(function (x) { return lc(x) === lc(view.label); })[0]; return esc(l || view.label); }
    return FOLDERS.filter(function (f) { return f.key === view.name; })[0].label;
  }
  function banner() {
    if (sessionStorage.getItem('lm.banner') === 'off') return '';
    return '<div class="banner" id="banner"><span class="bell" aria-hidden="true">' + ICON.bell + '</span><span class="grow">Get notified about new mail. Larkmail works best with desktop notifications turned on.</span>' +
      '<button class="linkbtn" id="bn-on">Turn on</button><button class="icon-btn" id="bn-x" aria-label="Dismiss notification banner">' + ICON.close + '</button></div>';
  }
  function wireBanner() {
    var off = function () { sessionStorage.setItem('lm.banner', 'off'); var b = $('#banner'); if (b) b.remove(); };
    if ($('#bn-x')) { $('#bn-x').addEventListener('click', off); $('#bn-on').addEventListener('click', off); }
  }
  function footer() {
    return '<footer class="footer"><span class="usage">2.41 GB of 15 GB used · <a href="#">Manage storage</a></span>' +
      ['Terms', 'Privacy', 'Program Policies', 'Help Center', 'Keyboard shortcuts', 'Send feedback', 'Status'].map(function (x) { return '<a href="#">' + x + '</a>'; }).join('') +
      '<span>Last account activity: 12 minutes ago · <a href="#">Details</a></span></footer>';
  }

  function renderList() {
    var threads = listThreads();
    view.listIds = threads.map(function (t) { return t.id; });
    var nm = view.name;
    var canArchive = nm !== 'archive' && nm !== 'trash';
    var canMove = nm === 'archive' || nm === 'trash' || nm === 'search';
    var html = banner() + '<div class="pagehead">' + titleFor() + '</div>' +
      '<div class="toolbar" role="toolbar" aria-label="Conversation actions">' +
      '<input type="checkbox" id="selall" aria-label="Select all conversations">' +
      '<button class="icon-btn" aria-label="Refresh" id="tb-refresh">' + ICON.refresh + '</button>' +
      (canArchive ? '<button class="icon-btn" data-act="archive" aria-label="Archive" disabled>' + ICON.archive + '</button>' : '') +
      (nm !== 'trash' ? '<button class="icon-btn" data-act="delete" aria-label="Delete" disabled>' + ICON.trash + '</button>' : '') +
      (canMove ? '<button class="icon-btn" data-act="move" aria-label="Move to Inbox" disabled>' + ICON.inbox + '</button>' : '') +
      '<span class="anchor"><button class="icon-btn" data-act="label" data-pop aria-label="Label as" disabled>' + ICON.label + '</button></span>' +
      '<span class="selcount" id="selcount"></span><span class="spacer"></span>' +
      '<span class="range">' + (threads.length ? '1–' + threads.length + ' of ' + threads.length : '') + '</span></div>';
    if (nm === 'trash') html += '<div class="hint" style="padding:8px 18px">Messages that have been in Trash more than 30 days will be deleted automatically.</div>';
    if (!threads.length) {
      html += '<div class="empty">' + (nm === 'search' ? 'No messages matched your search. Try using search options such as sender, date, size and more.' : 'Nothing here.') + '</div>';
    } else {
      html += '<table class="threads"><tbody>';
      threads.forEach(function (t) {
        var last = t.messages[t.messages.length - 1];
        var hasAtt = t.messages.some(function (x) { return x.attachments.length; });
        var boxChip = nm === 'search' && t.box !== 'inbox' ? '<span class="chiplabel">' + (t.box === 'sent' ? 'Sent' : t.box.charAt(0).toUpperCase() + t.box.slice(1)) + '</span>' : '';
        html += '<tr class="' + (t.unread ? 'unread' : 'read') + '" data-id="' + t.id + '">' +
          '<td class="c-check"><input type="checkbox" class="rowcheck" aria-label="Select"></td>' +
          '<td class="c-star"><button class="icon-btn star' + (t.starred ? ' on' : '') + '" data-star aria-label="' + (t.starred ? 'Unstar' : 'Star') + '">' + (t.starred ? '★' : '☆') + '</button></td>' +
          '<td class="c-from">' + senderLine(t) + '</td>' +
          '<td class="c-subj">' + boxChip + t.labels.filter(function () { return nm !== 'label'; }).map(function (l) { return '<span class="chiplabel">' + esc(l) + '</span>'; }).join('') +
          '<a href="/thread/' + t.id + '" data-nav>' + esc(t.subject) + '</a> <span class="snip">– ' + esc(last.body.replace(/\s+/g, ' ').slice(0, 90)) + '</span></td>' +
          '<td class="c-date">' + (hasAtt ? '<span class="clip" title="Has attachment" aria-label="Has attachment">' + ICON.clip + '</span> ' : '') + fmtShort(lastDate(t)) + '</td>' +
          '<td class="c-act">' + (canArchive ? '<button class="icon-btn rowact" data-row="archive" aria-label="Archive">' + ICON.archive + '</button>' : '') +
          (canMove && t.box !== 'inbox' ? '<button class="icon-btn rowact" data-row="move" aria-label="Move to Inbox">' + ICON.inbox + '</button>' : '') +
          (t.box !== 'trash' ? '<button class="icon-btn rowact" data-row="delete" aria-label="Delete">' + ICON.trash + '</button>' : '') + '</td></tr>';
      });
      html += '</tbody></table>';
    }
    html += footer();
    var main = $('#main');
    main.innerHTML = html;
    wireBanner();
    $('#tb-refresh').addEventListener('click', function () { renderList(); });
    $('#selall').addEventListener('change', function () {
      var on = this.checked;
      $all('.rowcheck').forEach(function (c) { c.checked = on; });
      syncSel();
    });
    $all('.rowcheck').forEach(function (c) { c.addEventListener('change', syncSel); });
    $all('.toolbar [data-act]').forEach(function (b) {
      b.addEventListener('click', function () {
        var ids = selectedIds(); if (!ids.length) return;
        var a = b.dataset.act;
        if (a === 'archive') moveThreads(ids, 'archive', 'archive');
        else if (a === 'delete') moveThreads(ids, 'trash', 'delete');
        else if (a === 'move') moveThreads(ids, 'inbox', 'move');
        else if (a === 'label') openLabelMenu(b, ids);
      });
    });
    $all('table.threads tr').forEach(function (tr) {
      var id = +tr.dataset.id;
      tr.addEventListener('click', function (e) {
        if (e.target.closest('button,input,a')) return;
        go('/thread/' + id);
      });
      tr.querySelector('[data-star]').addEventListener('click', function () { setStar(id, !threadById(id).starred); });
      $all('[data-row]', tr).forEach(function (b) {
        b.addEventListener('click', function () {
          var a = b.dataset.row;
          moveThreads([id], a === 'archive' ? 'archive' : a === 'delete' ? 'trash' : 'inbox', a);
        });
      });
    });
  }
  function selectedIds() { return $all('.rowcheck').filter(function (c) { return c.checked; }).map(function (c) { return +c.closest('tr').dataset.id; }); }
  function syncSel() {
    var ids = selectedIds();
    $all('table.threads tr').forEach(function (tr) { tr.classList.toggle('selected', tr.querySelector('.rowcheck').checked); });
    $all('.toolbar [data-act]').forEach(function (b) { b.disabled = !ids.length; });
    $('#selcount').textContent = ids.length ? ids.length + ' selected' : '';
    var all = $all('.rowcheck');
    $('#selall').checked = all.length && ids.length === all.length;
  }

  function renderDrafts() {
    var html = banner() + '<div class="pagehead">Drafts</div>';
    if (!S.drafts.length) html += '<div class="empty">You don\u2019t have any saved drafts.</div>';
    else {
      html += '<table class="threads"><tbody>';
      S.drafts.slice().sort(function (a, b) { return a.date < b.date ? 1 : -1; }).forEach(function (d) {
        html += '<tr class="read" data-draft="' + d.id + '"><td class="c-check"></td><td class="c-from"><span style="color:#c5221f">Draft</span> ' +
          esc(d.to.map(function (p) { return p.name; }).join(', ') || '(no recipients)') + '</td><td class="c-subj"><a href="#" data-open-draft="' + d.id + '">' + esc(d.subject || '(no subject)') + '</a> <span class="snip">– ' + esc(d.body.replace(/\s+/g, ' ').slice(0, 80)) + '</span></td><td class="c-date">' + fmtShort(d.date) + '</td></tr>';
      });
      html += '</tbody></table>';
    }
    $('#main').innerHTML = html + footer();
    wireBanner();
    $all('tr[data-draft]').forEach(function (tr) {
      tr.addEventListener('click', function (e) {
        e.preventDefault();
        var d = S.drafts.filter(function (x) { return x.id === +tr.dataset.draft; })[0];
        openCompose({ kind: 'draft', draft: d });
      });
    });
  }

  // ---------- thread view ----------
  function renderThread() {
    var t = threadById(view.threadId);
    if (!t) { $('#main').innerHTML = '<div class="empty">This conversation could not be found. It may have been deleted.</div>' + footer(); return; }
    if (t.unread) { t.unread = false; save(); }
    var html = '<div class="toolbar" role="toolbar" aria-label="Conversation actions">' +
      '<a class="icon-btn" href="' + backPath() + '" data-nav aria-label="Back to ' + backPath().slice(1).replace(/^./, function (c) { return c.toUpperCase(); }) + '">' + ICON.back + '</a>' +
      (t.box === 'inbox' || t.box === 'sent' ? '<button class="icon-btn" id="th-archive" aria-label="Archive">' + ICON.archive + '</button>' : '') +
      (t.box === 'archive' || t.box === 'trash' ? '<button class="icon-btn" id="th-move" aria-label="Move to Inbox">' + ICON.inbox + '</button>' : '') +
      (t.box !== 'trash' ? '<button class="icon-btn" id="th-delete" aria-label="Delete">' + ICON.trash + '</button>' : '') +
      '<span class="anchor"><button class="icon-btn" id="th-label" data-pop aria-label="Label as">' + ICON.label + '</button></span>' +
      '<span class="spacer"></span><button class="icon-btn star' + (t.starred ? ' on' : '') + '" id="th-star" aria-label="' + (t.starred ? 'Unstar' : 'Star') + '">' + (t.starred ? '★' : '☆') + '</button></div>' +
      '<div class="thread"><h1>' + esc(t.subject) + '</h1><div>' +
      (t.box === 'trash' ? '<span class="chiplabel">Trash</span>' : t.box === 'archive' ? '<span class="chiplabel">Archived</span>' : '') +
      t.labels.map(function (l) { return '<span class="chiplabel">' + esc(l) + '</span>'; }).join('') + '</div>';
    t.messages.forEach(function (x) {
      html += '<div class="msg"><div class="mh"><span class="who">' + esc(isMe(x.from) ? 'Priya Raman' : x.from.name) + '</span><span class="addr">&lt;' + esc(x.from.email) + '&gt;</span><span class="when">' + fmtLong(x.date) + '</span></div>' +
        '<div class="rcpt">to ' + esc(x.to.map(function (p) { return isMe(p) ? 'me' : p.name; }).join(', ')) + (x.cc.length ? ', cc ' + esc(x.cc.map(function (p) { return isMe(p) ? 'me' : p.name; }).join(', ')) : '') + '</div>' +
        '<div class="body">' + esc(x.body) + '</div>' +
        (x.attachments.length ? '<div class="atts">' + x.attachments.map(function (a) { return '<div class="att"><b>' + esc(a.name) + '</b>' + fmtSize(a.size) + '</div>'; }).join('') + '</div>' : '') + '</div>';
    });
    html += '<div class="replybar"><button class="btn" id="th-reply">↩ Reply</button><button class="btn" id="th-replyall">↩↩ Reply all</button><button class="btn" id="th-fwd">↪ Forward</button></div></div>' + footer();
    $('#main').innerHTML = html;
    var h = function (id, fn) { var el = $(id); if (el) el.addEventListener('click', fn); };
    h('#th-archive', function () { moveThreads([t.id], 'archive', 'archive'); });
    h('#th-delete', function () { moveThreads([t.id], 'trash', 'delete'); });
    h('#th-move', function () { moveThreads([t.id], 'inbox', 'move'); });
    h('#th-star', function () { setStar(t.id, !t.starred); });
    h('#th-label', function () { openLabelMenu($('#th-label'), [t.id]); });
    h('#th-reply', function () { openCompose({ kind: 'reply', thread: t }); });
    h('#th-replyall', function () { openCompose({ kind: 'replyall', thread: t }); });
    h('#th-fwd', function () { openCompose({ kind: 'forward', thread: t }); });
    $('#th-reply').setAttribute('aria-label', 'Reply');
    $('#th-replyall').setAttribute('aria-label', 'Reply all');
    $('#th-fwd').setAttribute('aria-label', 'Forward');
  }

  // ---------- compose ----------
  var C = null;
  function sigBlock() { return S.settings.signature ? '\n\n-- \n' + S.settings.signature : ''; }
  function openCompose(o) {
    if (C) { if (!closeCompose(true)) return; }
    C = { kind: o.kind === 'replyall' ? 'reply' : o.kind === 'draft' ? 'new' : o.kind, to: [], cc: [], subject: '', body: '', attachments: [], threadId: null, draftId: null, showCc: false };
    if (o.kind === 'draft') {
      var d = o.draft;
      C.to = d.to.map(function (p) { return p.email; }); C.cc = d.cc.map(function (p) { return p.email; });
      C.subject = d.subject; C.body = d.body; C.attachments = d.attachments.slice(); C.draftId = d.id; C.threadId = d.threadId || null;
      if (d.kind) C.kind = d.kind;
      C.showCc = C.cc.length > 0;
    } else if (o.thread) {
      var t = o.thread, last = t.messages[t.messages.length - 1], others = t.messages.filter(function (x) { return !isMe(x.from); });
      var src = others.length ? others[others.length - 1] : last;
      C.threadId = t.id;
      var quote = '\n\nOn ' + fmtLong(last.date) + ', ' + last.from.name + ' <' + last.from.email + '> wrote:\n' + last.body.split('\n').map(function (l) { return '> ' + l; }).join('\n');
      if (o.kind === 'forward') {
        C.subject = /^fwd:/i.test(t.subject) ? t.subject : 'Fwd: ' + t.subject;
        C.body = sigBlock() + '\n\n---------- Forwarded message ---------\nFrom: ' + last.from.name + ' <' + last.from.email + '>\nDate: ' + fmtLong(last.date) + '\nSubject: ' + t.subject + '\n\n' + last.body;
        var seen = {};
        t.messages.forEach(function (x) { x.attachments.forEach(function (a) { if (!seen[a.name]) { seen[a.name] = 1; C.attachments.push(a.name); } }); });
      } else {
        C.subject = /^re:/i.test(t.subject) ? t.subject : 'Re: ' + t.subject;
        C.body = sigBlock() + quote;
        if (isMe(src.from)) C.to = src.to.map(function (p) { return p.email; });
        else C.to = [src.from.email];
        if (o.kind === 'replyall') {
          var all = src.to.concat(src.cc).map(function (p) { return lc(p.email); }).filter(function (e) { return e !== ME.email && C.to.indexOf(e) < 0; });
          C.cc = uniqSorted(all);
          C.showCc = C.cc.length > 0;
        }
      }
    } else {
      C.body = sigBlock();
    }
    C.snapshot = JSON.stringify([C.to, C.cc, C.subject, C.body, C.attachments]);
    renderCompose();
  }
  function fileByName(n) { return FILES.filter(function (f) { return f.name === n; })[0]; }
  function attSize(n) {
    var f = fileByName(n); if (f) return f.size;
    var sz = 0; S.threads.forEach(function (t) { t.messages.forEach(function (x) { x.attachments.forEach(function (a) { if (a.name === n) sz = a.size; }); }); });
    return sz;
  }
  function chipHtml(email) {
    var p = findContact(email), bad = !isEmail(email);
    return '<span class="chip' + (bad ? ' bad' : '') + '" title="' + esc(email) + '">' + esc(p.name) + '<button type="button" aria-label="Remove ' + esc(email) + '" data-rm="' + esc(email) + '">×</button></span>';
  }
  function renderCompose() {
    var title = C.kind === 'reply' ? 'Reply' : C.kind === 'forward' ? 'Forward' : 'New Message';
    var root = $('#compose-root');
    root.innerHTML = '<div class="compose" role="dialog" aria-label="' + title + '">' +
      '<div class="ch"><span class="t">' + esc(C.subject || title) + '</span>' +
      '<button class="icon-btn" id="c-close" aria-label="Save &amp; close">' + ICON.close + '</button></div>' +
      '<div class="field" id="f-to"><span class="flabel">To</span><div class="chips" id="chips-to"></div>' +
      '<button type="button" class="cc-toggle" id="c-cctoggle" aria-label="Add Cc recipients"' + (C.showCc ? ' hidden' : '') + '>Cc</button></div>' +
      '<div class="field" id="f-cc"' + (C.showCc ? '' : ' hidden') + '><span class="flabel">Cc</span><div class="chips" id="chips-cc"></div></div>' +
      '<div class="field"><input class="subj" id="c-subj" placeholder="Subject" value="' + esc(C.subject) + '"></div>' +
      '<textarea id="c-body" aria-label="Message body"></textarea>' +
      '<div class="catts" id="c-atts"></div><div class="err" id="c-err" role="alert"></div>' +
      '<div class="cf"><button class="btn primary send" id="c-send">Send</button>' +
      '<button class="icon-btn" id="c-attach" data-pop aria-label="Attach files">' + ICON.clip + '</button>' +
      '<span class="spacer" style="flex:1"></span><button class="icon-btn" id="c-discard" aria-label="Discard draft">' + ICON.trash + '</button></div></div>';
    $('#c-body').value = C.body;
    wireChipField('to'); wireChipField('cc');
    renderAtts();
    $('#c-subj').addEventListener('input', function () { C.subject = this.value; root.querySelector('.ch .t').textContent = C.subject || title; });
    $('#c-body').addEventListener('input', function () { C.body = this.value; });
    $('#c-cctoggle').addEventListener('click', function () { C.showCc = true; $('#f-cc').hidden = false; this.hidden = true; $('#f-cc input').focus(); });
    $('#c-close').addEventListener('click', function () { closeCompose(true); });
    $('#c-discard').addEventListener('click', discardCompose);
    $('#c-send').addEventListener('click', sendCompose);
    $('#c-attach').addEventListener('click', openPicker);
    if (C.kind === 'new' && !C.to.length) $('#f-to input').focus(); else $('#c-body').focus();
    if (C.kind !== 'new') $('#c-body').setSelectionRange(0, 0);
  }
  function wireChipField(which) {
    var box = $('#chips-' + which);
    function draw() {
      box.innerHTML = C[which].map(chipHtml).join('') +
        '<input type="text" class="chip-input" role="combobox" aria-autocomplete="list" aria-expanded="false" autocomplete="off"' +
        (which === 'cc' ? ' aria-label="Cc"' : '') + '>';
      var inp = box.querySelector('input');
      $all('[data-rm]', box).forEach(function (b) { b.addEventListener('click', function () { C[which] = C[which].filter(function (e) { return e !== b.dataset.rm; }); draw(); }); });
      var sug = null, active = -1, list = [];
      function closeSug() { if (sug) { sug.remove(); sug = null; } inp.setAttribute('aria-expanded', 'false'); active = -1; }
      function add(email) { email = lc(email); if (email && C[which].indexOf(email) < 0) C[which].push(email); closeSug(); draw(); box.querySelector('input').focus(); }
      function showSug() {
        var v = lc(inp.value); closeSug();
        if (!v) return;
        list = CONTACT_KEYS.map(function (k) { return P[k]; }).filter(function (p) { return personText(p).indexOf(v) >= 0 || lc(p.name).split(/\s+/).some(function (w) { return w.indexOf(v) === 0; }); }).slice(0, 6);
        if (!list.length) return;
        sug = document.createElement('ul');
        sug.className = 'sugg'; sug.setAttribute('role', 'listbox'); sug.id = 'sugg-' + which;
        sug.innerHTML = list.map(function (p, i) { return '<li role="option" aria-label="' + esc(p.name + ' <' + p.email + '>') + '" data-i="' + i + '">' + esc(p.name) + '<span class="e">' + esc(p.email) + '</span></li>'; }).join('');
        sug.addEventListener('mousedown', function (e) { e.preventDefault(); });
        $all('li', sug).forEach(function (li) { li.addEventListener('click', function () { add(list[+li.dataset.i].email); }); });
        box.parentNode.appendChild(sug);
        inp.setAttribute('aria-expanded', 'true'); inp.setAttribute('aria-controls', sug.id);
      }
      function commitText() {
        var v = inp.value.trim().replace(/[,;]$/, '');
        if (!v) return false;
        var mm = v.match(/<([^>]+)>/); if (mm) v = mm[1];
        if (isEmail(v)) { inp.value = ''; add(v); return true; }
        return false;
      }
      inp.addEventListener('input', function () {
        if (/[,;]\s*$/.test(inp.value)) { commitText(); return; }
        showSug();
      });
      inp.addEventListener('keydown', function (e) {
        var lis = sug ? $all('li', sug) : [];
        if (e.key === 'ArrowDown' && lis.length) { e.preventDefault(); active = (active + 1) % lis.length; lis.forEach(function (l, i) { l.classList.toggle('active', i === active); }); }
        else if (e.key === 'ArrowUp' && lis.length) { e.preventDefault(); active = (active - 1 + lis.length) % lis.length; lis.forEach(function (l, i) { l.classList.toggle('active', i === active); }); }
        else if (e.key === 'Enter' || e.key === 'Tab') {
          if (active >= 0 && list[active]) { e.preventDefault(); inp.value = ''; add(list[active].email); }
          else if (inp.value.trim()) {
            if (!commitText()) {
              if (list.length && sug) { e.preventDefault(); inp.value = ''; add(list[0].email); }
              else if (e.key === 'Enter') { e.preventDefault(); var v = lc(inp.value); inp.value = ''; add(v); }
            } else e.preventDefault();
          }
        } else if (e.key === 'Backspace' && !inp.value && C[which].length) { C[which].pop(); draw(); box.querySelector('input').focus(); }
        else if (e.key === 'Escape') closeSug();
      });
      inp.addEventListener('blur', function () { setTimeout(function () { if (document.activeElement !== inp) { commitText(); closeSug(); } }, 150); });
    }
    draw();
  }
  function renderAtts() {
    $('#c-atts').innerHTML = C.attachments.map(function (n) {
      return '<span class="catt">' + ICON.clip + ' ' + esc(n) + ' <span class="snip">(' + fmtSize(attSize(n)) + ')</span><button type="button" aria-label="Remove attachment ' + esc(n) + '" data-ra="' + esc(n) + '">✕</button></span>';
    }).join('');
    $all('[data-ra]').forEach(function (b) { b.addEventListener('click', function () { C.attachments = C.attachments.filter(function (n) { return n !== b.dataset.ra; }); renderAtts(); }); });
  }
  function openPicker() {
    if ($('#picker')) { $('#picker').remove(); return; }
    var pk = document.createElement('div');
    pk.className = 'picker popover'; pk.id = 'picker';
    pk.setAttribute('role', 'dialog'); pk.setAttribute('aria-label', 'Recent files');
    pk.innerHTML = '<h3>Recent files</h3>' + FILES.map(function (f) {
      var on = C.attachments.indexOf(f.name) >= 0;
      return '<label><input type="checkbox" aria-label="' + esc(f.name) + '" data-f="' + esc(f.name) + '"' + (on ? ' checked disabled' : '') + '> ' + esc(f.name) + '<span class="sz">' + fmtSize(f.size) + '</span></label>';
    }).join('') + '<div class="perr" role="alert"></div><div class="pa"><button type="button" class="btn" data-c>Cancel</button><button type="button" class="btn primary" data-a>Attach</button></div>';
    $('.compose .cf').appendChild(pk);
    pk.querySelector('[data-c]').addEventListener('click', function () { pk.remove(); });
    pk.querySelector('[data-a]').addEventListener('click', function () {
      var pick = $all('input:checked:not([disabled])', pk).map(function (c) { return c.dataset.f; });
      var total = C.attachments.concat(pick).reduce(function (s, n) { return s + attSize(n); }, 0);
      if (total > MAX_ATTACH) { pk.querySelector('.perr').textContent = 'Attachments can\u2019t exceed 25 MB in total. Share large files as a link instead.'; return; }
      pick.forEach(function (n) { if (C.attachments.indexOf(n) < 0) C.attachments.push(n); });
      pk.remove(); renderAtts();
    });
  }
  function flushInputs() {
    ['to', 'cc'].forEach(function (w) {
      var inp = $('#chips-' + w + ' input'); if (!inp) return;
      var v = inp.value.trim().replace(/[,;]$/, ''); if (!v) return;
      var mm = v.match(/<([^>]+)>/); if (mm) v = mm[1];
      if (C[w].indexOf(lc(v)) < 0) C[w].push(lc(v));
      inp.value = '';
    });
  }
  function hasContent() { return C.to.length || C.cc.length || C.subject.trim() || C.attachments.length || C.body.trim() !== sigBlock().trim(); }
  function closeCompose(keep) {
    flushInputs();
    if (keep && hasContent()) {
      var changed = JSON.stringify([C.to, C.cc, C.subject, C.body, C.attachments]) !== C.snapshot;
      if (changed || !C.draftId) {
        var d = C.draftId ? S.drafts.filter(function (x) { return x.id === C.draftId; })[0] : null;
        if (!d) { d = { id: S.nextId++ }; S.drafts.push(d); }
        d.to = C.to.map(findContact); d.cc = C.cc.map(findContact); d.subject = C.subject.trim(); d.body = C.body;
        d.attachments = C.attachments.slice(); d.date = nowStamp(); d.kind = C.kind; d.threadId = C.threadId;
        save();
        logEvent('draft_saved', { to: uniqSorted(C.to), cc: uniqSorted(C.cc), subject: C.subject.trim(), attachments: uniqSorted(C.attachments) });
        toast('Draft saved.');
      }
    }
    C = null; $('#compose-root').innerHTML = '';
    refresh();
    return true;
  }
  function discardCompose() {
    if (C.draftId) {
      var id = C.draftId;
      S.drafts = S.drafts.filter(function (x) { return x.id !== id; }); save();
      logEvent('draft_discarded', { draft: id });
    }
    C = null; $('#compose-root').innerHTML = '';
    toast('Draft discarded.');
    refresh();
  }
  function sendCompose() {
    flushInputs();
    var err = $('#c-err');
    if (!C.to.length && !C.cc.length) { err.textContent = 'Please specify at least one recipient.'; return; }
    var bad = C.to.concat(C.cc).filter(function (e) { return !isEmail(e); });
    if (bad.length) { err.textContent = 'The address "' + bad[0] + '" in the ' + (C.to.indexOf(bad[0]) >= 0 ? '"To"' : '"Cc"') + ' field was not recognized. Please make sure that all addresses are properly formed.'; wireChipField('to'); wireChipField('cc'); return; }
    var msg = { from: ME, to: C.to.map(findContact), cc: C.cc.map(findContact), date: nowStamp(), body: C.body,
      attachments: C.attachments.map(function (n) { return { name: n, size: attSize(n) }; }) };
    var t = C.threadId ? threadById(C.threadId) : null, newId;
    if (t && C.kind === 'reply') { t.messages.push(msg); if (t.box === 'trash') t.box = 'inbox'; newId = t.id; }
    else { newId = S.nextId++; S.threads.push({ id: newId, box: 'sent', subject: C.subject.trim() || '(no subject)', labels: [], starred: false, unread: false, messages: [msg] }); }
    if (C.draftId) { var did = C.draftId; S.drafts = S.drafts.filter(function (x) { return x.id !== did; }); }
    save();
    var ev = { kind: C.kind, to: uniqSorted(C.to), cc: uniqSorted(C.cc), subject: C.subject.trim(), attachments: uniqSorted(C.attachments) };
    if (C.threadId) ev.thread = C.threadId;
    logEvent('message_sent', ev);
    C = null; $('#compose-root').innerHTML = '';
    toast('Message sent.');
    refresh();
  }

  // ---------- settings ----------
  function renderSettings() {
    var st = S.settings, v = S.vacation;
    var html = '<div class="pagehead">Settings</div><div class="settings"><div class="tabs"><span class="on">General</span><span>Labels</span><span>Accounts</span><span>Filters and Blocked Addresses</span><span>Forwarding</span></div>' +
      '<div class="srow"><div class="sl"><label for="s-density">Display density:</label></div><div class="sv"><select id="s-density"><option value="comfortable">Comfortable</option><option value="compact">Compact</option></select></div></div>' +
      '<div class="srow"><div class="sl">Maximum page size:</div><div class="sv">Show <select id="s-page" aria-label="Conversations per page"><option>25</option><option>50</option><option>100</option></select> conversations per page</div></div>' +
      '<div class="srow"><div class="sl">Signature:<small>(appended at the end of all outgoing messages)</small></div><div class="sv"><textarea id="s-sig" placeholder="Add a signature"></textarea></div></div>' +
      '<div class="srow"><div class="sl">Vacation responder:<small>(sends an automated reply to incoming messages)</small></div><div class="sv">' +
      '<div><label><input type="radio" name="vac" id="v-off" value="off"> Vacation responder off</label></div>' +
      '<div><label><input type="radio" name="vac" id="v-on" value="on"> Vacation responder on</label></div>' +
      '<div class="vline"><span class="vl">First day:</span><input type="date" id="v-start"></div>' +
      '<div class="vline"><label class="vl"><input type="checkbox" id="v-hasend"> Last day:</label><input type="date" id="v-end" aria-label="Last day date"></div>' +
      '<div class="vline"><span class="vl">Subject:</span><input type="text" id="v-subj" style="max-width:420px"></div>' +
      '<div class="vline" style="align-items:flex-start"><span class="vl">Message:</span><textarea id="v-msg" aria-label="Vacation message" style="max-width:420px"></textarea></div>' +
      '<div><label><input type="checkbox" id="v-contacts"> Only send a response to people in my Contacts</label></div>' +
      '<div class="hint">The first day can\u2019t be earlier than today. Vacation responses are sent at most once every 4 days to each sender.</div></div></div>' +
      '<div class="serr" id="s-err" role="alert"></div>' +
      '<div class="sactions"><button class="btn primary" id="s-save">Save Changes</button><button class="btn" id="s-cancel">Cancel</button></div></div>' + footer();
    $('#main').innerHTML = html;
    $('#s-density').value = st.density; $('#s-page').value = String(st.page_size); $('#s-sig').value = st.signature;
    $(v.enabled ? '#v-on' : '#v-off').checked = true;
    $('#v-start').value = v.start; $('#v-hasend').checked = v.hasEnd; $('#v-end').value = v.end; $('#v-subj').value = v.subject; $('#v-msg').value = v.message; $('#v-contacts').checked = v.contacts_only;
    $('#v-end').addEventListener('change', function () { if (this.value) $('#v-hasend').checked = true; });
    $('#s-cancel').addEventListener('click', function () { go('/inbox'); });
    $('#s-save').addEventListener('click', saveSettings);
  }
  function saveSettings() {
    var err = $('#s-err'); err.textContent = '';
    var ns = { density: $('#s-density').value, page_size: +$('#s-page').value, signature: $('#s-sig').value.replace(/\s+$/, '') };
    var nv = { enabled: $('#v-on').checked, start: $('#v-start').value, hasEnd: $('#v-hasend').checked, end: $('#v-end').value,
      subject: $('#v-subj').value.trim(), message: $('#v-msg').value, contacts_only: $('#v-contacts').checked };
    if (nv.enabled) {
      if (!nv.start) { err.textContent = 'Please choose the first day of your vacation.'; return; }
      if (nv.start < TODAY) { err.textContent = 'The first day can\u2019t be earlier than today (Nov 28, 2026).'; return; }
      if (nv.hasEnd && !nv.end) { err.textContent = 'Please choose the last day, or untick "Last day".'; return; }
      if (nv.hasEnd && nv.end < nv.start) { err.textContent = 'The last day must be on or after the first day.'; return; }
      if (!nv.subject && !nv.message.trim()) { err.textContent = 'Please enter a subject or a message for your vacation response.'; return; }
    }
    var st = S.settings, ov = S.vacation;
    var sChanged = st.density !== ns.density || st.page_size !== ns.page_size || st.signature !== ns.signature;
    var vChanged = ov.enabled !== nv.enabled || (nv.enabled && JSON.stringify(ov) !== JSON.stringify(nv));
    S.settings = ns;
    S.vacation = nv;
    save();
    if (sChanged) logEvent('settings_saved', { density: ns.density, page_size: ns.page_size, signature: ns.signature });
    if (vChanged) {
      var ev = { enabled: nv.enabled };
      if (nv.enabled) {
        ev.start = nv.start;
        if (nv.hasEnd) ev.end = nv.end;
        ev.subject = nv.subject;
        ev.contacts_only = nv.contacts_only;
      }
      logEvent('vacation_responder', ev);
    }
    toast(sChanged || vChanged ? 'Your preferences have been saved.' : 'No changes to save.');
  }

  // ---------- boot ----------
  load();
  renderHeader();
  route();
})();
