(function () {
  var c = cart(), PER = 5, page = 1;
  if (!c || !c.search) { $("#cards").innerHTML = '<li class="empty">Your search has expired. <a href="/index.html">Start a new search</a>.</li>'; return; }
  var s = c.search, leg = (s.trip === "return" && c.outbound) ? "inbound" : "outbound";
  var o = leg === "outbound" ? s.origin : s.destination, d = leg === "outbound" ? s.destination : s.origin;
  var date = leg === "outbound" ? s.depart_date : s.return_date;
  var all = flightsFor(o, d, date, s.cabin);
  var pax = s.adults + s.children;
  $("#summary").innerHTML = '<div><b>' + esc(airport(o).city) + ' (' + o + ') &rarr; ' + esc(airport(d).city) + ' (' + d + ')</b> · ' + longDate(date) +
    ' · ' + pax + (pax === 1 ? ' traveller' : ' travellers') + ' · ' + CABINS[s.cabin] + '</div><a class="btn ghost" href="/index.html">Change search</a>';
  $("#res-title").textContent = leg === "outbound" ? (s.trip === "return" ? "Choose your outbound flight" : "Choose your flight") : "Choose your return flight";
  var names = []; all.forEach(function (f) { if (names.indexOf(f.airline) < 0) names.push(f.airline); }); names.sort();
  $("#airline-filters").innerHTML += names.map(function (n) { return '<label><input type="checkbox" name="airline" value="' + esc(n) + '"> ' + esc(n) + '</label>'; }).join("");

  function checked(name) { return $$('input[name="' + name + '"]:checked').map(function (i) { return i.value; }); }
  function tod(f) { return f.depMin < 720 ? "m" : (f.depMin < 1080 ? "a" : "e"); }
  function visible() {
    var st = checked("stops"), t = checked("tod"), al = checked("airline");
    var list = all.filter(function (f) {
      return (!st.length || st.indexOf(String(Math.min(f.stops, 2))) >= 0) && (!t.length || t.indexOf(tod(f)) >= 0) && (!al.length || al.indexOf(f.airline) >= 0);
    });
    var k = $("#sort").value;
    list.sort(function (a, b) {
      if (k === "price") return a.price - b.price || a.depMin - b.depMin;
      if (k === "dur") return a.durMin - b.durMin || a.price - b.price;
      if (k === "early") return a.depMin - b.depMin;
      if (k === "late") return b.depMin - a.depMin;
      return (a.price + a.durMin * 0.6 + a.stops * 40) - (b.price + b.durMin * 0.6 + b.stops * 40);
    });
    return list;
  }
  function stopsText(f) { return f.stops === 0 ? "Nonstop" : (f.stops + (f.stops === 1 ? " stop" : " stops") + " via " + f.via.join(", ")); }
  function render() {
    var list = visible(), pages = Math.max(1, Math.ceil(list.length / PER));
    if (page > pages) page = pages;
    $("#res-count").textContent = list.length + (list.length === 1 ? " flight" : " flights") + " found" + (list.length < all.length ? " (" + all.length + " before filters)" : "");
    var slice = list.slice((page - 1) * PER, page * PER);
    $("#cards").innerHTML = slice.length ? slice.map(function (f) {
      return '<li class="card" data-flight="' + f.flight + '"><div class="c-air"><span class="al-badge">' + f.flight.slice(0, 2) + '</span><div><b>' + esc(f.airline) + '</b><small>' + f.flight + '</small></div></div>' +
        '<div class="c-times"><div><b>' + f.dep + '</b><small>' + f.origin + '</small></div><div class="c-line"><small>' + duration(f.durMin) + '</small><span></span><small class="' + (f.stops ? "stops" : "nonstop") + '">' + stopsText(f) + '</small></div>' +
        '<div><b>' + f.arr + (f.nextDay ? '<sup>+1</sup>' : '') + '</b><small>' + f.destination + '</small></div></div>' +
        '<div class="c-price"><b>' + money(f.price).replace(".00", "") + '</b><small>per traveller</small><button type="button" class="btn primary" data-select="' + f.flight + '">Select</button></div></li>';
    }).join("") : '<li class="empty">No flights match your filters. <button type="button" class="linkish" id="clear2">Clear filters</button></li>';
    var p = "";
    if (pages > 1) {
      p += '<button type="button" class="pg" data-page="' + (page - 1) + '"' + (page === 1 ? " disabled" : "") + '>Previous</button>';
      for (var i = 1; i <= pages; i++) p += '<button type="button" class="pg' + (i === page ? ' cur" aria-current="page' : '') + '" data-page="' + i + '" aria-label="Page ' + i + '">' + i + '</button>';
      p += '<button type="button" class="pg" data-page="' + (page + 1) + '"' + (page === pages ? " disabled" : "") + '>Next</button>';
    }
    $("#pager").innerHTML = p;
  }
  document.addEventListener("change", function (e) { if (e.target.closest(".filters") || e.target.id === "sort") { page = 1; render(); } });
  function clearAll() { $$(".filters input").forEach(function (i) { i.checked = false; }); page = 1; render(); }
  $("#clear-filters").addEventListener("click", clearAll);
  $("#pager").addEventListener("click", function (e) { var b = e.target.closest("[data-page]"); if (b && !b.disabled) { page = +b.getAttribute("data-page"); render(); window.scrollTo(0, 0); } });
  $("#cards").addEventListener("click", function (e) {
    if (e.target.id === "clear2") return clearAll();
    var b = e.target.closest("[data-select]"); if (!b) return;
    var f = all.filter(function (x) { return x.flight === b.getAttribute("data-select"); })[0];
    logEvent("flight_selected", {leg: leg, flight: f.flight, origin: f.origin, destination: f.destination, date: f.date, departure_time: f.dep, cabin: s.cabin, price: f.price});
    var keep = {flight: f.flight, airline: f.airline, origin: f.origin, destination: f.destination, date: f.date, dep: f.dep, arr: f.arr, price: f.price};
    c[leg] = keep; saveCart(c);
    location.href = leg === "outbound" && s.trip === "return" ? "/results.html" : "/travellers.html";
  });
  render();
})();
