/* Aerolark shared script: header/footer includes, data, helpers */
var TODAY = "2026-11-28";
var AIRPORTS = [
  {code:"BOS", city:"Boston", name:"Logan International", lat:42.36, lon:-71.01},
  {code:"JFK", city:"New York", name:"John F. Kennedy International", lat:40.64, lon:-73.78},
  {code:"LGA", city:"New York", name:"LaGuardia", lat:40.78, lon:-73.87},
  {code:"EWR", city:"Newark", name:"Liberty International", lat:40.69, lon:-74.17},
  {code:"ORD", city:"Chicago", name:"O'Hare International", lat:41.97, lon:-87.91},
  {code:"MDW", city:"Chicago", name:"Midway International", lat:41.79, lon:-87.75},
  {code:"DEN", city:"Denver", name:"Denver International", lat:39.86, lon:-104.67},
  {code:"LAX", city:"Los Angeles", name:"Los Angeles International", lat:33.94, lon:-118.41},
  {code:"SFO", city:"San Francisco", name:"San Francisco International", lat:37.62, lon:-122.38},
  {code:"SEA", city:"Seattle", name:"Seattle-Tacoma International", lat:47.45, lon:-122.31},
  {code:"PDX", city:"Portland", name:"Portland International", lat:45.59, lon:-122.60},
  {code:"MIA", city:"Miami", name:"Miami International", lat:25.80, lon:-80.29},
  {code:"ATL", city:"Atlanta", name:"Hartsfield-Jackson International", lat:33.64, lon:-84.43},
  {code:"DFW", city:"Dallas", name:"Dallas/Fort Worth International", lat:32.90, lon:-97.04},
  {code:"AUS", city:"Austin", name:"Austin-Bergstrom International", lat:30.19, lon:-97.67},
  {code:"YYZ", city:"Toronto", name:"Pearson International", lat:43.68, lon:-79.63},
  {code:"LHR", city:"London", name:"Heathrow", lat:51.47, lon:-0.45},
  {code:"LGW", city:"London", name:"Gatwick", lat:51.15, lon:-0.19},
  {code:"CDG", city:"Paris", name:"Charles de Gaulle", lat:49.01, lon:2.55}
];
var AIRLINES = [
  {code:"NS", name:"Northstar Air"}, {code:"BF", name:"Bluefin Airways"},
  {code:"CS", name:"Cascade Airlines"}, {code:"MR", name:"Meridian"}, {code:"PC", name:"Pacific Crest"}
];
var CABINS = {economy:"Economy", premium_economy:"Premium economy", business:"Business"};
var SEED_BOOKINGS = [
  {reference:"QX7R2M", last_name:"OKAFOR", status:"confirmed", passengers:["CHIDI OKAFOR"], bags:0, total:286,
   legs:[{flight:"NS 418", airline:"Northstar Air", origin:"BOS", destination:"SFO", date:"2026-12-12", dep:"8:05 AM", arr:"11:52 AM"}]},
  {reference:"HT4K9P", last_name:"LINDQVIST", status:"confirmed", passengers:["ERIK LINDQVIST","SOFIA LINDQVIST"], bags:1, total:1912,
   legs:[{flight:"MR 72", airline:"Meridian", origin:"JFK", destination:"LHR", date:"2027-01-08", dep:"6:30 PM", arr:"6:45 AM"},
         {flight:"MR 73", airline:"Meridian", origin:"LHR", destination:"JFK", date:"2027-01-15", dep:"11:10 AM", arr:"2:05 PM"}]},
  {reference:"MZ3D8F", last_name:"HARTMANN", status:"confirmed", passengers:["JONAS HARTMANN"], bags:0, total:214,
   legs:[{flight:"CS 1190", airline:"Cascade Airlines", origin:"ORD", destination:"DEN", date:"2026-11-29", dep:"6:40 AM", arr:"8:15 AM"}]},
  {reference:"PL5W6N", last_name:"GARCIA", status:"confirmed", passengers:["MARIA GARCIA","LUIS GARCIA","ANA GARCIA"], bags:2, total:1047,
   legs:[{flight:"BF 2207", airline:"Bluefin Airways", origin:"MIA", destination:"ATL", date:"2027-02-14", dep:"1:20 PM", arr:"3:14 PM"}]}
];

function logEvent(name, values) {
  var body = {event: name};
  for (var k in values) body[k] = values[k];
  return fetch("/__events", {method: "POST", keepalive: true,
    headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)}).catch(function(){});
}
function $(sel, root) { return (root || document).querySelector(sel); }
function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
function esc(s) { return String(s).replace(/[&<>"]/g, function(c){ return {"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]; }); }
function getJSON(store, key, dflt) { try { var v = store.getItem(key); return v ? JSON.parse(v) : dflt; } catch (e) { return dflt; } }
function setJSON(store, key, v) { store.setItem(key, JSON.stringify(v)); }
function airport(code) { for (var i = 0; i < AIRPORTS.length; i++) if (AIRPORTS[i].code === code) return AIRPORTS[i]; return null; }
function money(n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
function qs(name) { var m = new RegExp("[?&]" + name + "=([^&]*)").exec(location.search); return m ? decodeURIComponent(m[1].replace(/\+/g, " ")) : ""; }

/* dates: ISO strings only, no clock */
var MONTHS = ["January","February","March","April","May","June","July","August","September","October","November","December"];
var DAYS = ["Sunday","Monday","Tuesday","Wednesday","Thursday","Friday","Saturday"];
function isoParts(iso) { var p = iso.split("-"); return {y:+p[0], m:+p[1], d:+p[2]}; }
function pad(n) { return (n < 10 ? "0" : "") + n; }
function toIso(y, m, d) { return y + "-" + pad(m) + "-" + pad(d); }
function daysIn(y, m) { return new Date(Date.UTC(y, m, 0)).getUTCDate(); }
function weekday(iso) { var p = isoParts(iso); return new Date(Date.UTC(p.y, p.m - 1, p.d)).getUTCDay(); }
function addDays(iso, n) { var p = isoParts(iso); var t = new Date(Date.UTC(p.y, p.m - 1, p.d + n)); return toIso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()); }
function longDate(iso) { var p = isoParts(iso); return DAYS[weekday(iso)].slice(0,3) + ", " + MONTHS[p.m-1].slice(0,3) + " " + p.d + ", " + p.y; }
function usDate(iso) { var p = isoParts(iso); return pad(p.m) + "/" + pad(p.d) + "/" + p.y; }
/* accepts MM/DD/YYYY, M/D/YY, YYYY-MM-DD */
function parseDate(s) {
  s = (s || "").trim(); var m, y, mo, d;
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s))) { y = +m[1]; mo = +m[2]; d = +m[3]; }
  else if ((m = /^(\d{1,2})[\/.-](\d{1,2})[\/.-](\d{2}|\d{4})$/.exec(s))) { mo = +m[1]; d = +m[2]; y = +m[3]; if (y < 100) y += 2000; }
  else return null;
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return null;
  return toIso(y, mo, d);
}

/* deterministic flight schedule */
function hashStr(s) { var h = 2166136261; for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return h >>> 0; }
function rng(seed) { return function () { seed = (seed + 0x6D2B79F5) | 0; var t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }; }
function distanceKm(a, b) {
  var R = 6371, r = Math.PI / 180, dLat = (b.lat - a.lat) * r, dLon = (b.lon - a.lon) * r;
  var x = Math.sin(dLat/2) * Math.sin(dLat/2) + Math.cos(a.lat*r) * Math.cos(b.lat*r) * Math.sin(dLon/2) * Math.sin(dLon/2);
  return 2 * R * Math.asin(Math.sqrt(x));
}
function clock(min) { min = min % 1440; var h = Math.floor(min / 60), m = min % 60; return ((h % 12) || 12) + ":" + pad(m) + (h < 12 ? " AM" : " PM"); }
function duration(min) { return Math.floor(min / 60) + "h " + pad(min % 60) + "m"; }
var HUBS = ["ORD","DEN","ATL","DFW","JFK"];
function flightsFor(o, d, date, cabin) {
  var A = airport(o), B = airport(d); if (!A || !B || o === d) return [];
  var r = rng(hashStr(o + "-" + d + "-" + date)), dist = distanceKm(A, B);
  var n = 8 + Math.floor(r() * 7), base = Math.round(dist / 780 * 60 + 35), out = [], used = {};
  for (var i = 0; i < n; i++) {
    var al = AIRLINES[Math.floor(r() * AIRLINES.length)];
    var stops = dist < 500 ? 0 : (r() < 0.45 ? 0 : (r() < 0.8 ? 1 : 2));
    var dep = 330 + Math.floor(r() * 200) * 5; while (used[dep]) dep += 5; used[dep] = 1;
    var dur = base + stops * (55 + Math.floor(r() * 18) * 5) + Math.floor(r() * 4) * 5;
    var price = (49 + dist * 0.09) * (0.75 + r() * 0.7) * (stops === 0 ? 1.18 : (stops === 1 ? 1 : 0.9));
    var num = al.code + " " + (100 + Math.floor(r() * 1800));
    var via = [];
    for (var s = 0; s < stops; s++) { var hub = HUBS[Math.floor(r() * HUBS.length)]; if (hub === o || hub === d || via.indexOf(hub) >= 0) hub = s ? "ATL" : "DFW"; via.push(hub); }
    var mult = cabin === "business" ? 3.4 : (cabin === "premium_economy" ? 1.7 : 1);
    out.push({flight: num, airline: al.name, origin: o, destination: d, date: date, depMin: dep, durMin: dur,
      dep: clock(dep), arr: clock(dep + dur), nextDay: dep + dur >= 1440, stops: stops, via: via,
      price: Math.round(price * mult), rank: i});
  }
  return out;
}

/* header, footer, cookie banner */
var ICON_SEARCH = '<svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><circle cx="10" cy="10" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path d="M15 15l6 6" stroke="currentColor" stroke-width="2"/></svg>';
var ICON_USER = '<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="8" r="4" fill="currentColor"/><path d="M4 21c0-4 4-6 8-6s8 2 8 6" fill="currentColor"/></svg>';
var ICON_CLOSE = '<svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true"><path d="M5 5l14 14M19 5L5 19" stroke="currentColor" stroke-width="2.5"/></svg>';
function renderChrome() {
  var h = document.getElementById("site-header");
  if (h) h.innerHTML =
    '<div class="hdr-inner"><a class="logo" href="/index.html"><span class="logo-mark">&#9992;</span> Aerolark</a>' +
    '<nav class="main-nav"><a href="/index.html">Flights</a><a href="/manage.html">Manage booking</a><a href="/help.html">Help</a></nav>' +
    '<form class="hdr-search" role="search" id="hdr-search"><input type="search" name="q" placeholder="Search help articles" aria-label="Search help">' +
    '<button type="submit" class="icon-btn" aria-label="Search">' + ICON_SEARCH + '</button></form>' +
    '<div class="hdr-tools"><span class="cur">USD $</span><button class="icon-btn" aria-label="Account" id="acct-btn">' + ICON_USER + '</button>' +
    '<div class="acct-menu" id="acct-menu" hidden><p>Sign-in is coming soon. You can still <a href="/manage.html">manage a booking</a> with your reference.</p></div></div></div>';
  var f = document.getElementById("site-footer");
  if (f) f.innerHTML =
    '<div class="ftr-news"><h4>Fare alerts in your inbox</h4><form id="ftr-nl" novalidate><input type="email" placeholder="you@example.com" aria-label="Email for deals"><button type="submit" class="btn primary">Sign up</button></form><div class="ftr-nl-msg" role="status"></div></div>' +
    '<div class="ftr-cols"><div><h4>Aerolark</h4><a href="#">About us</a><a href="#">Careers</a><a href="#">Press</a><a href="#">Affiliate program</a></div>' +
    '<div><h4>Plan</h4><a href="/index.html">Flights</a><a href="#">Flight status</a><a href="#">Airline partners</a><a href="#">Travel deals</a></div>' +
    '<div><h4>Support</h4><a href="/help.html">Help center</a><a href="/manage.html">Manage booking</a><a href="/help.html?a=refunds">Refunds</a><a href="/help.html?a=baggage">Baggage</a><a href="#">Contact us</a></div>' +
    '<div><h4>Legal</h4><a href="#">Terms of use</a><a href="#">Privacy policy</a><a href="#">Cookie settings</a><a href="#">Accessibility</a></div></div>' +
    '<p class="copy">&copy; 2026 Aerolark Travel, Inc. Fares shown in US dollars and include taxes and fees.</p>';
  var hs = document.getElementById("hdr-search");
  if (hs) hs.addEventListener("submit", function (e) {
    e.preventDefault(); var q = hs.q.value.trim(); if (!q) return;
    runHelpSearch(q);
  });
  var fn = document.getElementById("ftr-nl");
  if (fn) fn.addEventListener("submit", function (e) {
    e.preventDefault(); var v = fn.querySelector("input").value.trim().toLowerCase(), msg = $(".ftr-nl-msg");
    if (!validEmail(v)) { msg.textContent = "Please enter a valid email address."; return; }
    logEvent("newsletter_signup", {email: v}); localStorage.setItem("al_nl_seen", "1");
    fn.reset(); msg.textContent = "Thanks! You're subscribed as " + v + ".";
  });
  var ab = document.getElementById("acct-btn");
  if (ab) ab.addEventListener("click", function () { var m = $("#acct-menu"); m.hidden = !m.hidden; });
  if (!localStorage.getItem("al_cookie_choice")) {
    var b = document.createElement("div"); b.className = "cookie-banner"; b.setAttribute("role", "region"); b.setAttribute("aria-label", "Cookie consent");
    b.innerHTML = '<p>We use cookies to remember your searches, measure traffic and show you relevant deals. See our <a href="#">cookie policy</a>.</p>' +
      '<div class="cb-btns"><button type="button" class="btn ghost" data-c="necessary">Only necessary</button><button type="button" class="btn primary" data-c="all">Accept all</button></div>';
    document.body.appendChild(b);
    b.addEventListener("click", function (e) { var c = e.target.getAttribute("data-c"); if (!c) return; localStorage.setItem("al_cookie_choice", c); b.remove(); });
  }
}
function validEmail(v) { return /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(v); }
function runHelpSearch(q) {
  logEvent("help_search", {query: q.trim().toLowerCase().replace(/\s+/g, " ")});
  location.href = "/help.html?q=" + encodeURIComponent(q);
}
function bookings() {
  var b = getJSON(localStorage, "al_bookings", null);
  if (!b) { b = JSON.parse(JSON.stringify(SEED_BOOKINGS)); setJSON(localStorage, "al_bookings", b); }
  return b;
}
function cart() { return getJSON(sessionStorage, "al_cart", null); }
function saveCart(c) { setJSON(sessionStorage, "al_cart", c); }
function paxCount(s) { return s.adults + s.children; }
document.addEventListener("DOMContentLoaded", renderChrome);
