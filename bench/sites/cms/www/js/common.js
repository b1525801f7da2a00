/* Tidewater Studio — shared data store, event log and page chrome */
(function () {
  "use strict";

  // The newsroom's clock: all scheduling rules are relative to this.
  var TODAY = "2026-11-28";
  var NOW = "2026-11-28T10:00";
  var STORE_KEY = "tw-studio:v3";

  var CATEGORIES = ["News", "Opinion", "Culture", "Food & Drink", "Outdoors", "Photography", "Uncategorized"];

  var MEDIA = [
    { file: "harbour-dawn.svg", alt: "Fishing boats moored in the harbour at dawn", size: "2.1 MB", uploaded: "2026-09-14" },
    { file: "market-stalls.svg", alt: "Christmas market stalls lit up at night", size: "1.8 MB", uploaded: "2026-11-21" },
    { file: "net-maker.svg", alt: "Elderly man mending a fishing net in his workshop", size: "2.4 MB", uploaded: "2026-11-10" },
    { file: "salt-house-dining.svg", alt: "Dining room of The Salt House restaurant", size: "1.2 MB", uploaded: "2026-11-18" },
    { file: "dredger-channel.svg", alt: "Dredging barge working in the harbour channel", size: "1.6 MB", uploaded: "2026-11-19" },
    { file: "ferry-terminal.svg", alt: "Car ferry leaving the terminal at Port Avon", size: "1.9 MB", uploaded: "2026-11-17" },
    { file: "kayaks-beach.svg", alt: "Two red kayaks pulled up on a pebble beach", size: "1.1 MB", uploaded: "2026-11-25" },
    { file: "sea-wall-storm.svg", alt: "Waves breaking over the sea wall during Storm Bram", size: "3.0 MB", uploaded: "2026-10-27" },
    { file: "skate-park-plan.svg", alt: "Architect's drawing of the planned skate park", size: "0.9 MB", uploaded: "2026-10-30" },
    { file: "books-window.svg", alt: "Stack of books on a window seat", size: "1.0 MB", uploaded: "2026-11-22" }
  ];

  var SEED_POSTS = [
    { id: 101, title: "Ferry fares rise again in January", status: "published", date: "2026-11-20T07:00", category: "News",
      tags: ["ferry", "prices", "transport"], image: "ferry-terminal.svg",
      excerpt: "Return tickets to the island will cost 6% more from 5 January.",
      body: "<p>Tidewater Ferries has confirmed a second fare increase in twelve months.</p><p>A standard return will rise to £14.80. The operator's <a href=\"https://tidewaterferries.co.uk/fares\">fare table</a> has the details.</p>" },
    { id: 102, title: "Ten winter walks along the estuary", status: "published", date: "2026-11-14T09:00", category: "Outdoors",
      tags: ["walks", "winter"], image: "harbour-dawn.svg", excerpt: "",
      body: "<p>From Mill Creek to the old lighthouse, these are the routes our readers love when the days get short.</p><h2>1. Mill Creek loop</h2><p>Four miles, mostly flat.</p>" },
    { id: 103, title: "Council approves new skate park", status: "published", date: "2026-11-02T12:00", category: "News",
      tags: ["council", "youth"], image: "skate-park-plan.svg",
      excerpt: "Work on the Recreation Ground site begins in spring.",
      body: "<p>Councillors voted 9–2 in favour of the plans on Tuesday night.</p>" },
    { id: 104, title: "Interview: the last net-maker on Quay Street", status: "draft", date: "2026-11-26T16:40", category: "Culture",
      tags: ["fishing", "interview"], image: "net-maker.svg", excerpt: "",
      body: "<p>Alf Penrose has been mending nets in the same workshop since 1961.</p>" },
    { id: 105, title: "Winter markets 2026: full guide", status: "draft", date: "2026-11-27T11:15", category: "Food & Drink",
      tags: ["christmas", "markets"], image: "", excerpt: "Dates, opening times and parking for every market this season.",
      body: "<p>Eleven markets across the district this year, starting with the Harbour Lights market on 4 December.</p><p>Stallholders are listed by the council.</p>" },
    { id: 106, title: "Review: The Salt House reopens", status: "scheduled", date: "2026-12-01T08:00", category: "Food & Drink",
      tags: ["restaurants", "review"], image: "salt-house-dining.svg",
      excerpt: "New owners, same view — and a much better fish stew.",
      body: "<p>After eighteen months closed, The Salt House is back.</p>" },
    { id: 107, title: "Letters to the editor — November", status: "draft", date: "2026-11-24T10:05", category: "Opinion",
      tags: [], image: "", excerpt: "", body: "<p>Your letters on parking, the ferry and the library.</p>" },
    { id: 108, title: "Harbour dredging: what it means for boat owners", status: "scheduled", date: "2026-12-04T07:30", category: "News",
      tags: ["boats", "council", "harbour"], image: "dredger-channel.svg", excerpt: "Moorings on the east side will move for six weeks.",
      body: "<p>Dredging of the main channel starts on 11 January.</p>" },
    { id: 109, title: "Photo essay: Storm Bram", status: "published", date: "2026-10-28T18:00", category: "Photography",
      tags: ["storm", "weather"], image: "sea-wall-storm.svg", excerpt: "Readers' pictures from the night of 26 October.",
      body: "<p>Thank you to everyone who sent us photographs.</p>" },
    { id: 110, title: "Why we need a second bridge", status: "draft", date: "2026-11-22T14:20", category: "Opinion",
      tags: ["bridge", "council", "infrastructure", "traffic", "transport"], image: "", excerpt: "",
      body: "<p>Every summer the A39 bridge becomes a car park.</p>" },
    { id: 111, title: "Book club picks for December", status: "draft", date: "2026-11-25T09:30", category: "Culture",
      tags: ["books"], image: "books-window.svg", excerpt: "Three novels for long evenings, chosen by the Quayside Book Club.",
      body: "<p>This month the club read three books set by the sea.</p>" },
    { id: 112, title: "Lifeboat crew rescues two kayakers", status: "published", date: "2026-11-25T15:10", category: "News",
      tags: ["lifeboat", "rescue"], image: "", excerpt: "Both were cut off by the tide near Gull Point.",
      body: "<p>The inshore lifeboat launched at 2.15pm on Tuesday.</p>" }
  ];

  var SEED_COMMENTS = [
    { id: 201, post: 112, author: "Priya Nair", email: "Priya.Nair@example.com", date: "2026-11-27T08:12", status: "pending",
      text: "Well done to the crew. My son was on the beach and said they were there in minutes." },
    { id: 202, post: 101, author: "ferryfan88", email: "ferryfan88@example.net", date: "2026-11-26T21:40", status: "pending",
      text: "Another rise?! This is the third time. Absolute joke." },
    { id: 203, post: 102, author: "Gareth Lloyd", email: "g.lloyd@example.org", date: "2026-11-16T10:02", status: "approved",
      text: "Walk 4 is closed past the stile at the moment because of the landslip." },
    { id: 204, post: 101, author: "Watch Deals Online", email: "sales@cheap-watch-deals.example", date: "2026-11-27T03:15", status: "pending",
      text: "Great article! Luxury replica watches at 90% off, visit our shop today." },
    { id: 205, post: 112, author: "Tom Beckett", email: "tom.beckett@example.com", date: "2026-11-27T12:30", status: "pending",
      text: "Does anyone know if the kayakers were local? There's no warning sign at Gull Point." },
    { id: 206, post: 103, author: "seo-boost", email: "hello@seo-boost.example", date: "2026-11-26T02:11", status: "pending",
      text: "Your website could rank higher! We offer guaranteed first page results." },
    { id: 207, post: 109, author: "seo-boost", email: "hello@seo-boost.example", date: "2026-11-26T02:14", status: "pending",
      text: "Nice photos. Want more visitors? Click our link for cheap backlinks." },
    { id: 208, post: 109, author: "Helen Ward", email: "Helen.Ward@example.co.uk", date: "2026-10-29T19:45", status: "spam",
      text: "That last picture of the sea wall is my neighbour's house! Incredible." },
    { id: 209, post: 103, author: "Dr. Anika Shah", email: "a.shah@example.org", date: "2026-11-03T09:20", status: "approved",
      text: "As a GP I'm delighted. Anything that gets teenagers outdoors is good news." },
    { id: 210, post: 102, author: "Martin O'Neill", email: "martin.oneill@example.com", date: "2026-11-20T17:05", status: "pending",
      text: "You missed the path behind the church at St Ives Cross, best view on the estuary." },
    { id: 211, post: 101, author: "Gareth Lloyd", email: "g.lloyd@example.org", date: "2026-11-21T08:30", status: "approved",
      text: "Residents' discount cards still apply, for anyone wondering." }
  ];

  function clone(o) { return JSON.parse(JSON.stringify(o)); }

  function load() {
    var raw = localStorage.getItem(STORE_KEY);
    if (raw) { try { return JSON.parse(raw); } catch (e) { /* fall through */ } }
    var s = { posts: clone(SEED_POSTS), comments: clone(SEED_COMMENTS), nextPostId: 113, nextCommentId: 212 };
    localStorage.setItem(STORE_KEY, JSON.stringify(s));
    return s;
  }
  function save(s) { localStorage.setItem(STORE_KEY, JSON.stringify(s)); }

  // Events are sent one after another so the backend sees them in the order they happened.
  var outbox = [], sending = false;
  function send(body) {
    try {
      return fetch("/__events", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: body });
    } catch (e) { return Promise.resolve(); }
  }
  function pump() {
    if (sending || !outbox.length) return;
    sending = true;
    send(outbox.shift()).catch(function () {}).then(function () { sending = false; pump(); });
  }
  window.addEventListener("pagehide", function () { while (outbox.length) send(outbox.shift()); });
  function track(event, values) {
    outbox.push(JSON.stringify(Object.assign({ event: event }, values || {})));
    pump();
  }

  function api(path, payload) {
    return fetch("/api/" + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload || {}) })
      .then(function (r) { return r.json(); }).catch(function () { return { ok: true }; });
  }

  function linksOf(html) {
    var d = document.createElement("div");
    d.innerHTML = html || "";
    return Array.prototype.map.call(d.querySelectorAll("a[href]"), function (a) { return a.getAttribute("href"); }).sort();
  }

  // What the backend records for a post
  function postRecord(p) {
    var r = { post_id: p.id, title: p.title, status: p.status, category: p.category,
      tags: p.tags.slice().sort(), excerpt: p.excerpt || "", links: linksOf(p.body) };
    if (p.image) r.featured_image = p.image;
    return r;
  }

  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function fmtDate(iso, withTime) {
    if (!iso) return "";
    var d = iso.slice(0, 10).split("-");
    var s = parseInt(d[2], 10) + " " + MONTHS[parseInt(d[1], 10) - 1] + " " + d[0];
    if (withTime && iso.length > 10) s += ", " + iso.slice(11, 16);
    return s;
  }

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function toast(msg, kind) {
    var host = document.querySelector(".toast-stack");
    if (!host) { host = document.createElement("div"); host.className = "toast-stack"; host.setAttribute("role", "status"); document.body.appendChild(host); }
    var t = document.createElement("div");
    t.className = "toast" + (kind ? " toast--" + kind : "");
    t.textContent = msg;
    host.appendChild(t);
    setTimeout(function () { t.remove(); }, 4000);
  }

  // Generic confirm popup, resolves true/false
  function confirmBox(opts) {
    return new Promise(function (resolve) {
      var wrap = document.createElement("div");
      wrap.className = "modal-backdrop";
      wrap.innerHTML = '<div class="modal" role="dialog" aria-modal="true" aria-labelledby="cf-title">' +
        '<div class="modal__head"><h2 id="cf-title">' + esc(opts.title) + '</h2></div>' +
        '<div class="modal__body"><p>' + esc(opts.text) + '</p></div>' +
        '<div class="modal__foot"><button type="button" class="btn btn--ghost" data-no>Cancel</button>' +
        '<button type="button" class="btn btn--danger" data-yes>' + esc(opts.ok || "OK") + '</button></div></div>';
      document.body.appendChild(wrap);
      wrap.querySelector("[data-yes]").focus();
      function done(v) { wrap.remove(); resolve(v); }
      wrap.querySelector("[data-yes]").onclick = function () { done(true); };
      wrap.querySelector("[data-no]").onclick = function () { done(false); };
      wrap.addEventListener("keydown", function (e) { if (e.key === "Escape") done(false); });
    });
  }

  var ICONS = {
    search: '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16.5 16.5L21 21" stroke="currentColor" stroke-width="2"/></svg>',
    bell: '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M6 17V11a6 6 0 0112 0v6l2 2H4z" fill="none" stroke="currentColor" stroke-width="2"/></svg>',
    trash: '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" fill="none" stroke="currentColor" stroke-width="2"/></svg>',
    eye: '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3" fill="currentColor"/></svg>',
    close: '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M5 5l14 14M19 5L5 19" stroke="currentColor" stroke-width="2"/></svg>'
  };

  function renderChrome(active) {
    var s = load();
    var pending = s.comments.filter(function (c) { return c.status === "pending"; }).length;
    var header = document.createElement("header");
    header.className = "topbar";
    header.innerHTML =
      '<div class="topbar__inner">' +
        '<a class="brand" href="index.html"><span class="brand__mark">T</span><span class="brand__name">Tidewater Weekly <small>Studio</small></span></a>' +
        '<nav class="mainnav"><div class="mainnav__list">' +
          '<a href="index.html" class="' + (active === "posts" ? "is-active" : "") + '">Posts</a>' +
          '<a href="editor.html" class="' + (active === "new" ? "is-active" : "") + '">New post</a>' +
          '<a href="comments.html" class="' + (active === "comments" ? "is-active" : "") + '">Comments <span class="pill">' + pending + '</span></a>' +
        '</div></nav>' +
        '<form class="topsearch" role="search" action="index.html">' +
          '<span class="topsearch__icon">' + ICONS.search + '</span>' +
          '<input type="search" name="q" placeholder="Search posts" autocomplete="off">' +
        '</form>' +
        '<div class="topbar__tools">' +
          '<button type="button" class="iconbtn" aria-label="Notifications">' + ICONS.bell + '</button>' +
          '<button type="button" class="avatar" aria-label="Account: Maya Okafor">MO</button>' +
        '</div>' +
      '</div>';
    document.body.insertBefore(header, document.body.firstChild);
    var form = header.querySelector(".topsearch");
    var q = new URLSearchParams(location.search).get("q");
    if (q && active === "posts") form.q.value = q;
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var v = form.q.value.trim();
      if (v) track("posts_searched", { query: v.toLowerCase() });
      location.href = "index.html" + (v ? "?q=" + encodeURIComponent(v) : "");
    });

    if (!sessionStorage.getItem("tw-banner-closed")) {
      var b = document.createElement("div");
      b.className = "announce";
      b.innerHTML = '<div class="announce__inner"><strong>New in Studio:</strong> posts can now be scheduled up to a year ahead. ' +
        '<a href="#" onclick="return false">Read the changelog</a>' +
        '<button type="button" class="iconbtn iconbtn--light" aria-label="Dismiss announcement">' + ICONS.close + '</button></div>';
      header.after(b);
      b.querySelector("button").onclick = function () { sessionStorage.setItem("tw-banner-closed", "1"); b.remove(); };
    }

    var footer = document.createElement("footer");
    footer.className = "sitefoot";
    footer.innerHTML =
      '<div class="sitefoot__cols">' +
        '<div><h4>Studio</h4><a href="index.html">All posts</a><a href="comments.html">Comments</a><a href="#">Media library</a><a href="#">Categories</a></div>' +
        '<div><h4>Newsroom</h4><a href="#">Style guide</a><a href="#">Corrections policy</a><a href="#">Contributor rates</a><a href="#">Editorial calendar</a></div>' +
        '<div><h4>Help</h4><a href="#">Keyboard shortcuts</a><a href="#">Status</a><a href="#">Contact IT</a></div>' +
        '<div><h4>Legal</h4><a href="#">Privacy</a><a href="#">Terms</a><a href="#">Cookies</a></div>' +
      '</div><p class="sitefoot__small">Tidewater Weekly Studio 4.12 · © 2026 Tidewater Media Ltd.</p>';
    document.body.appendChild(footer);
  }

  window.TW = {
    TODAY: TODAY, NOW: NOW, CATEGORIES: CATEGORIES, MEDIA: MEDIA,
    load: load, save: save, track: track, api: api, postRecord: postRecord, linksOf: linksOf,
    fmtDate: fmtDate, esc: esc, toast: toast, confirmBox: confirmBox, renderChrome: renderChrome, ICONS: ICONS
  };
})();
