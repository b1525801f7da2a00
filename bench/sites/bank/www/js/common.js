/* Harbourline Bank – online banking shared script */
var HB = (function () {
  "use strict";

  var TODAY = "2026-11-28";
  var DAILY_LIMIT = 2500;
  var CUSTOMER = { number: "40718823", name: "Mrs Hannah Carter", phoneEnd: "47" };

  var SEED = {
    accounts: [
      { id: "current", name: "Everyday Current Account", last4: "4821", sortCode: "30-94-12", number: "11824821", balance: 3412.56, overdraft: 500 },
      { id: "saver", name: "Easy Saver", last4: "7730", sortCode: "30-94-12", number: "60377730", balance: 12050.00, overdraft: 0, rate: "3.10% AER variable" }
    ],
    payees: [
      { id: "p1", name: "J. Okafor", sortCode: "40-47-84", account: "31926647", reference: "Rent Flat 2" },
      { id: "p2", name: "British Gas", sortCode: "60-00-01", account: "11492290", reference: "ACC 850021733" },
      { id: "p3", name: "Thames Water", sortCode: "20-96-89", account: "90241853", reference: "WTR 4471 0092" },
      { id: "p4", name: "Priya Shah", sortCode: "09-01-28", account: "45120987", reference: "" },
      { id: "p5", name: "Greenfield Nursery", sortCode: "30-15-57", account: "27748001", reference: "Ava Carter" },
      { id: "p6", name: "Marcus Bell", sortCode: "77-91-20", account: "03318865", reference: "Football" }
    ],
    standingOrders: [
      { id: "so1", payee: "J. Okafor", amount: 850, frequency: "monthly", next: "2026-12-01", reference: "Rent Flat 2" },
      { id: "so2", payee: "Greenfield Nursery", amount: 420, frequency: "monthly", next: "2026-12-03", reference: "Ava Carter" },
      { id: "so3", payee: "Easy Saver", amount: 200, frequency: "monthly", next: "2026-12-15", reference: "Savings" },
      { id: "so4", payee: "Marcus Bell", amount: 12, frequency: "weekly", next: "2026-12-04", reference: "Football" }
    ],
    cards: [
      { id: "debit", name: "Visa Debit", last4: "2290", account: "Everyday Current Account", expiry: "09/29", frozen: false, spending: 2500, cash: 300 },
      { id: "credit", name: "Harbourline Mastercard", last4: "5512", account: "Credit card", expiry: "03/28", frozen: true, spending: 3000, cash: 200 }
    ],
    prefs: {
      email: "hannah.carter@example.co.uk", mobile: "07700900147", statements: "paper",
      lowBalance: false, lowBalanceThreshold: null, largePayment: true,
      marketing: ["email", "post"], contactMethod: "email"
    },
    payments: []
  };

  var TRANSACTIONS = {
    current: [
      ["2026-11-27", "TESCO STORES 3318 LEWISHAM", "Card", 54.21, 0],
      ["2026-11-26", "TFL TRAVEL CHARGE", "Card", 8.10, 0],
      ["2026-11-25", "ACME LOGISTICS LTD SALARY", "Bank credit", 0, 2845.00],
      ["2026-11-24", "NETFLIX.COM", "Card", 10.99, 0],
      ["2026-11-20", "THAMES WATER", "Direct debit", 38.50, 0],
      ["2026-11-17", "PRIYA SHAH  Cinema", "Faster payment", 18.00, 0],
      ["2026-11-12", "SAINSBURYS S/MKT", "Card", 72.64, 0],
      ["2026-11-03", "GREENFIELD NURSERY Ava Carter", "Standing order", 420.00, 0],
      ["2026-11-02", "BRITISH GAS ACC 850021733", "Faster payment", 92.15, 0],
      ["2026-11-01", "J. OKAFOR Rent Flat 2", "Standing order", 850.00, 0],
      ["2026-10-28", "MARCUS BELL Football", "Standing order", 12.00, 0],
      ["2026-10-02", "BRITISH GAS ACC 850021733", "Faster payment", 88.70, 0]
    ],
    saver: [
      ["2026-11-15", "FROM 11824821 Savings", "Standing order", 0, 200.00],
      ["2026-10-31", "INTEREST PAID", "Interest", 0, 30.44],
      ["2026-10-15", "FROM 11824821 Savings", "Standing order", 0, 200.00],
      ["2026-09-30", "INTEREST PAID", "Interest", 0, 29.87]
    ]
  };

  function load(key) {
    var raw = localStorage.getItem("hb_" + key);
    if (raw === null) {
      var v = JSON.parse(JSON.stringify(SEED[key]));
      localStorage.setItem("hb_" + key, JSON.stringify(v));
      return v;
    }
    return JSON.parse(raw);
  }
  function save(key, value) { localStorage.setItem("hb_" + key, JSON.stringify(value)); }

  function logEvent(name, values) {
    var body = { event: name };
    for (var k in values) { if (Object.prototype.hasOwnProperty.call(values, k)) body[k] = values[k]; }
    try {
      fetch("/__events", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    } catch (e) { /* ignore */ }
  }

  function signedIn() { return sessionStorage.getItem("hb_session") === "active"; }

  function requireAuth() {
    if (!signedIn()) {
      var page = location.pathname.split("/").pop() || "accounts.html";
      location.replace("index.html?next=" + encodeURIComponent(page + location.search));
      return false;
    }
    return true;
  }

  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  var MON = MONTHS.map(function (m) { return m.slice(0, 3); });

  function money(n) {
    var neg = n < 0; n = Math.abs(n);
    var s = n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "−£" : "£") + s;
  }
  function parseAmount(s) {
    s = String(s || "").replace(/[£,\s]/g, "");
    if (!/^\d+(\.\d{1,2})?$/.test(s)) return null;
    return Math.round(parseFloat(s) * 100) / 100;
  }
  /* accepts DD/MM/YYYY, D/M/YY or YYYY-MM-DD; returns ISO or null */
  function parseDate(s) {
    s = String(s || "").trim();
    var m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s), y, mo, d;
    if (m) { y = +m[1]; mo = +m[2]; d = +m[3]; }
    else {
      m = /^(\d{1,2})[\/.\-](\d{1,2})[\/.\-](\d{2}|\d{4})$/.exec(s);
      if (!m) return null;
      d = +m[1]; mo = +m[2]; y = +m[3]; if (y < 100) y += 2000;
    }
    var dt = new Date(Date.UTC(y, mo - 1, d));
    if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
    return dt.toISOString().slice(0, 10);
  }
  function fmtDate(iso) {
    var p = iso.split("-");
    return (+p[2]) + " " + MON[+p[1] - 1] + " " + p[0];
  }
  function addDays(iso, n) {
    var dt = new Date(iso + "T00:00:00Z"); dt.setUTCDate(dt.getUTCDate() + n);
    return dt.toISOString().slice(0, 10);
  }
  function normSortCode(s) {
    var d = String(s || "").replace(/[\s\-]/g, "");
    if (!/^\d{6}$/.test(d)) return null;
    return d.slice(0, 2) + "-" + d.slice(2, 4) + "-" + d.slice(4, 6);
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]; });
  }
  function qs(name) { return new URLSearchParams(location.search).get(name); }

  var ICON_SEARCH = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><circle cx="10" cy="10" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path d="M15 15l6 6" stroke="currentColor" stroke-width="2"/></svg>';
  var ICON_EXIT = '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><path d="M10 4H4v16h6M14 8l4 4-4 4M8 12h10" fill="none" stroke="currentColor" stroke-width="2"/></svg>';
  var ICON_BELL = '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 16V11a6 6 0 0112 0v5l2 2H4zM10 20h4" fill="none" stroke="currentColor" stroke-width="2"/></svg>';

  var NAV = [
    ["accounts", "accounts.html", "My accounts"],
    ["transfer", "transfer.html", "Payments & transfers"],
    ["payees", "payees.html", "Payees"],
    ["standing", "standing-orders.html", "Standing orders"],
    ["statements", "statements.html", "Statements"],
    ["cards", "cards.html", "Card services"],
    ["preferences", "preferences.html", "Settings"]
  ];

  function chrome() {
    var page = document.body.getAttribute("data-page");
    var authed = signedIn();
    var h = document.getElementById("app-header");
    if (h) {
      var nav = "";
      if (authed) {
        nav = '<nav class="mainnav" aria-label="Main"><ul>' + NAV.map(function (n) {
          return '<li class="mainnav__item' + (n[0] === page ? " is-active" : "") + '"><a href="' + n[1] + '"' + (n[0] === page ? ' aria-current="page"' : "") + ">" + n[2] + "</a></li>";
        }).join("") + "</ul></nav>";
      }
      h.innerHTML =
        '<div class="topbar"><div class="wrap topbar__inner">' +
        '<a class="brand" href="' + (authed ? "accounts.html" : "index.html") + '"><span class="brand__mark">H</span><span class="brand__name">Harbourline</span><span class="brand__sub">Online Banking</span></a>' +
        '<form class="hsearch" role="search" action="help.html"><input type="search" name="q" placeholder="Search help &amp; support" autocomplete="off"><button type="submit" class="iconbtn" aria-label="Search">' + ICON_SEARCH + "</button></form>" +
        '<div class="topbar__tools">' +
        (authed ? '<span class="who">' + esc(CUSTOMER.name) + '</span><a class="iconbtn" href="#" aria-label="Messages">' + ICON_BELL + '<span class="dot"></span></a><button type="button" class="iconbtn" id="signout" aria-label="Sign out">' + ICON_EXIT + "</button>" :
          '<a class="toplink" href="help.html">Help</a>') +
        "</div></div></div>" + nav;
      var so = document.getElementById("signout");
      if (so) so.addEventListener("click", function () { sessionStorage.removeItem("hb_session"); location.href = "index.html"; });
    }
    var f = document.getElementById("app-footer");
    if (f) {
      f.innerHTML = '<div class="wrap footer__cols">' +
        '<div><h4>Help</h4><ul><li><a href="help.html">Help &amp; support</a></li><li><a href="#">Contact us</a></li><li><a href="#">Report a lost or stolen card</a></li><li><a href="#">Complaints</a></li><li><a href="#">Bereavement support</a></li></ul></div>' +
        '<div><h4>Security</h4><ul><li><a href="#">Security centre</a></li><li><a href="#">Fraud &amp; scams</a></li><li><a href="#">Online banking guarantee</a></li></ul></div>' +
        '<div><h4>Legal</h4><ul><li><a href="#">Privacy notice</a></li><li><a href="#">Cookie policy</a></li><li><a href="#">Terms &amp; conditions</a></li><li><a href="#">Fees &amp; charges</a></li><li><a href="#">Accessibility</a></li></ul></div>' +
        '<div><h4>About us</h4><ul><li><a href="#">Careers</a></li><li><a href="#">Investor relations</a></li><li><a href="#">Sustainability</a></li><li><a href="#">Sitemap</a></li></ul></div>' +
        '</div><div class="wrap footer__legal"><p>Harbourline Bank plc. Registered in England and Wales no. 04417720. Authorised by the Prudential Regulation Authority and regulated by the Financial Conduct Authority and the Prudential Regulation Authority (FRN 198441). Eligible deposits are protected by the FSCS.</p></div>';
    }
    var cb = document.getElementById("cookie-banner");
    if (cb && localStorage.getItem("hb_cookies")) cb.hidden = true;
    if (cb) cb.addEventListener("click", function (e) {
      if (e.target.closest("[data-cookie]")) { localStorage.setItem("hb_cookies", e.target.closest("[data-cookie]").getAttribute("data-cookie")); cb.hidden = true; }
    });
  }

  function showErrors(box, errors) {
    if (!errors.length) { box.hidden = true; box.innerHTML = ""; return; }
    box.hidden = false;
    box.innerHTML = '<h2 class="errsum__title">There is a problem</h2><ul>' + errors.map(function (e) { return "<li>" + esc(e) + "</li>"; }).join("") + "</ul>";
    box.focus();
  }

  function modal(opts) {
    /* opts: title, body (html), confirm, cancel, onConfirm, role */
    var wrap = document.createElement("div");
    wrap.className = "overlay";
    var id = "dlg" + Math.floor(Math.random() * 1e6);
    wrap.innerHTML = '<div class="dialog" role="' + (opts.role || "dialog") + '" aria-modal="true" aria-labelledby="' + id + '">' +
      '<div class="dialog__head"><h2 id="' + id + '">' + esc(opts.title) + '</h2><button type="button" class="iconbtn dialog__x" aria-label="Close">✕</button></div>' +
      '<div class="dialog__body">' + opts.body + "</div>" +
      '<div class="dialog__foot"><button type="button" class="btn btn--primary" data-ok>' + esc(opts.confirm) + '</button> <button type="button" class="btn btn--secondary" data-cancel>' + esc(opts.cancel || "Cancel") + "</button></div></div>";
    document.body.appendChild(wrap);
    function close() { wrap.remove(); }
    wrap.querySelector(".dialog__x").onclick = close;
    wrap.querySelector("[data-cancel]").onclick = close;
    wrap.querySelector("[data-ok]").onclick = function () { if (opts.onConfirm(wrap) !== false) close(); };
    var first = wrap.querySelector("input,select,[data-ok]");
    if (first) first.focus();
    return wrap;
  }

  function accountLabel(a) { return a.name + " (" + a.last4 + ")"; }

  document.addEventListener("DOMContentLoaded", chrome);

  return {
    TODAY: TODAY, DAILY_LIMIT: DAILY_LIMIT, CUSTOMER: CUSTOMER, TRANSACTIONS: TRANSACTIONS, MONTHS: MONTHS,
    load: load, save: save, logEvent: logEvent, signedIn: signedIn, requireAuth: requireAuth,
    money: money, parseAmount: parseAmount, parseDate: parseDate, fmtDate: fmtDate, addDays: addDays,
    normSortCode: normSortCode, esc: esc, qs: qs, showErrors: showErrors, modal: modal, accountLabel: accountLabel
  };
})();
