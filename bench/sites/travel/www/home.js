/* home page: search form widgets + newsletter */
(function () {
  var state = {adults: 1, children: 0, from: null, to: null};
  var form = $("#search-form");

  function optionLabel(a) { return (a.name.indexOf(a.city) === 0 ? "" : a.city + " ") + '<span class="ac-name">' + esc(a.name) + '</span> <span class="ac-code">(' + a.code + ')</span>'; }
  function setupAc(inputId, key) {
    var inp = document.getElementById(inputId), list = document.getElementById(inputId + "-list"), active = -1, items = [];
    function close() { list.hidden = true; inp.setAttribute("aria-expanded", "false"); active = -1; }
    function render() {
      var q = inp.value.trim().toLowerCase(); state[key] = null;
      if (q.length < 2) { close(); return; }
      items = AIRPORTS.filter(function (a) {
        return a.code.toLowerCase() === q || a.city.toLowerCase().indexOf(q) === 0 || a.name.toLowerCase().indexOf(q) >= 0 || (a.city + " " + a.name).toLowerCase().indexOf(q) >= 0;
      });
      if (!items.length) { list.innerHTML = '<li class="ac-empty">No airports match "' + esc(inp.value) + '"</li>'; }
      else list.innerHTML = items.map(function (a, i) { return '<li role="option" id="' + inputId + '-opt-' + i + '" data-code="' + a.code + '">' + optionLabel(a) + '</li>'; }).join("");
      list.hidden = false; inp.setAttribute("aria-expanded", "true");
    }
    function pick(code) { var a = airport(code); state[key] = code; inp.value = a.city + " (" + a.code + ")"; close(); }
    inp.addEventListener("input", render);
    inp.addEventListener("keydown", function (e) {
      var opts = $$('[role="option"]', list);
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault(); if (!opts.length) return;
        active = (active + (e.key === "ArrowDown" ? 1 : -1) + opts.length) % opts.length;
        opts.forEach(function (o, i) { o.classList.toggle("active", i === active); o.setAttribute("aria-selected", i === active ? "true" : "false"); });
        inp.setAttribute("aria-activedescendant", opts[active].id);
      } else if (e.key === "Enter" && !list.hidden && active >= 0) { e.preventDefault(); pick(opts[active].getAttribute("data-code")); }
      else if (e.key === "Escape") close();
    });
    list.addEventListener("mousedown", function (e) { e.preventDefault(); });
    list.addEventListener("click", function (e) { var li = e.target.closest('[role="option"]'); if (li) pick(li.getAttribute("data-code")); });
    inp.addEventListener("blur", function () { setTimeout(close, 150); });
    return {pick: pick, inp: inp};
  }
  var acFrom = setupAc("from", "from"), acTo = setupAc("to", "to");
  $(".swap").addEventListener("click", function () {
    var f = state.from, t = state.to, fv = acFrom.inp.value, tv = acTo.inp.value;
    acFrom.inp.value = tv; acTo.inp.value = fv; state.from = t; state.to = f;
  });

  // trip type
  function syncTrip() { $("#return-fld").style.visibility = form.trip.value === "return" ? "visible" : "hidden"; }
  $$('input[name="trip"]').forEach(function (r) { r.addEventListener("change", syncTrip); });

  // steppers
  form.addEventListener("click", function (e) {
    var b = e.target.closest("[data-step]"); if (!b) return;
    var k = b.getAttribute("data-step"), d = +b.getAttribute("data-d"), v = state[k] + d;
    var min = k === "adults" ? 1 : 0;
    if (v < min) return;
    if (state.adults + state.children + d > 9) { showErr("You can book up to 9 travellers at a time."); return; }
    if (k === "children" && v > state.adults * 2) { showErr("Each adult can travel with at most 2 children."); return; }
    state[k] = v; $("#" + k + "-n").textContent = v; showErr("");
  });

  // calendar
  var cal = $("#calendar"), calFor = null, calMonth = null;
  function drawCal() {
    var y = calMonth.y, m = calMonth.m, first = weekday(toIso(y, m, 1)), html = "";
    var cur = parseDate(document.getElementById(calFor).value);
    html += '<div class="cal-head"><button type="button" class="icon-btn" aria-label="Previous month" data-nav="-1">&#8249;</button><b>' + MONTHS[m-1] + " " + y +
      '</b><button type="button" class="icon-btn" aria-label="Next month" data-nav="1">&#8250;</button><button type="button" class="icon-btn" aria-label="Close calendar" data-close="1">&#10005;</button></div>';
    html += '<div class="cal-grid" role="grid"><div class="dow">Su</div><div class="dow">Mo</div><div class="dow">Tu</div><div class="dow">We</div><div class="dow">Th</div><div class="dow">Fr</div><div class="dow">Sa</div>';
    for (var i = 0; i < first; i++) html += "<div></div>";
    for (var d = 1; d <= daysIn(y, m); d++) {
      var iso = toIso(y, m, d), past = iso < TODAY;
      html += '<button type="button" class="day' + (iso === cur ? " sel" : "") + (iso === TODAY ? " today" : "") + '" data-iso="' + iso + '"' + (past ? " disabled" : "") +
        ' aria-label="' + DAYS[weekday(iso)] + ", " + MONTHS[m-1] + " " + d + ", " + y + '">' + d + "</button>";
    }
    cal.innerHTML = html + "</div>";
  }
  $$(".cal-btn").forEach(function (b) {
    b.addEventListener("click", function () {
      calFor = b.getAttribute("data-for");
      var cur = parseDate(document.getElementById(calFor).value) || (calFor === "return" && parseDate($("#depart").value)) || TODAY;
      var p = isoParts(cur); calMonth = {y: p.y, m: p.m};
      var r = b.getBoundingClientRect(); cal.style.top = (r.bottom + window.scrollY + 6) + "px"; cal.style.left = Math.max(10, r.right + window.scrollX - 300) + "px";
      drawCal(); cal.hidden = false;
    });
  });
  cal.addEventListener("click", function (e) {
    var n = e.target.closest("[data-nav]");
    if (n) { var m = calMonth.m + (+n.getAttribute("data-nav")), y = calMonth.y; if (m < 1) { m = 12; y--; } if (m > 12) { m = 1; y++; } calMonth = {y: y, m: m}; drawCal(); return; }
    if (e.target.closest("[data-close]")) { cal.hidden = true; return; }
    var d = e.target.closest("[data-iso]");
    if (d) { document.getElementById(calFor).value = usDate(d.getAttribute("data-iso")); cal.hidden = true; }
  });

  function showErr(t) { $("#search-error").textContent = t; }
  function resolve(key, inp) {
    if (state[key]) return state[key];
    var v = inp.value.trim().toUpperCase(), m = /\(([A-Z]{3})\)$/.exec(v);
    if (m && airport(m[1])) return m[1];
    if (/^[A-Z]{3}$/.test(v) && airport(v)) return v;
    return null;
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var trip = form.trip.value, o = resolve("from", acFrom.inp), d = resolve("to", acTo.inp);
    if (!o) return showErr("Please choose a departure airport from the list.");
    if (!d) return showErr("Please choose a destination airport from the list.");
    if (o === d) return showErr("Origin and destination must be different.");
    var dep = parseDate($("#depart").value);
    if (!dep) return showErr("Please enter a departure date (MM/DD/YYYY).");
    if (dep < TODAY) return showErr("The departure date can't be in the past.");
    if (dep > addDays(TODAY, 330)) return showErr("Schedules are only open up to 330 days ahead (until " + longDate(addDays(TODAY, 330)) + ").");
    var ret = null;
    if (trip === "return") {
      ret = parseDate($("#return").value);
      if (!ret) return showErr("Please enter a return date, or choose One way.");
      if (ret < dep) return showErr("The return date must be on or after the departure date.");
      if (ret > addDays(TODAY, 330)) return showErr("Schedules are only open up to 330 days ahead.");
    }
    var s = {trip: trip, origin: o, destination: d, depart_date: dep, adults: state.adults, children: state.children, cabin: $("#cabin").value};
    if (ret) s.return_date = ret;
    var ev = {trip: trip, origin: o, destination: d, depart_date: dep};
    if (ret) ev.return_date = ret;
    ev.adults = s.adults; ev.children = s.children; ev.cabin = s.cabin;
    logEvent("flight_search", ev);
    saveCart({search: s, outbound: null, inbound: null});
    location.href = "/results.html";
  });

  // newsletter popup, a few seconds after landing, once per visitor
  var nl = $("#newsletter");
  if (!localStorage.getItem("al_nl_seen")) setTimeout(function () { nl.hidden = false; localStorage.setItem("al_nl_seen", "1"); }, 2500);
  $(".nl-close").addEventListener("click", function () { nl.hidden = true; });
  $("#nl-form").addEventListener("submit", function (e) {
    e.preventDefault(); var v = $("#nl-email").value.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(v)) { $("#nl-error").textContent = "Please enter a valid email address."; return; }
    logEvent("newsletter_signup", {email: v});
    nl.innerHTML = '<button type="button" class="icon-btn nl-close" aria-label="Close">&#10005;</button><h3>You\'re in!</h3><p>Look out for our next deals e-mail at ' + esc(v) + '.</p>';
    $(".nl-close", nl).addEventListener("click", function () { nl.hidden = true; });
  });
})();
