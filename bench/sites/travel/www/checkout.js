/* shared by the checkout pages */
function legsOf(c) { return c.inbound ? [c.outbound, c.inbound] : [c.outbound]; }
function renderTripBox(c) {
  var el = $("#trip-box"); if (!el) return;
  el.innerHTML = legsOf(c).map(function (l) {
    return '<div class="leg"><b>' + l.origin + ' &rarr; ' + l.destination + '</b> <span>' + longDate(l.date) + ' · ' + l.dep + ' – ' + l.arr + ' · ' + esc(l.airline) + ' ' + l.flight + '</span></div>';
  }).join("");
}
function ageOn(dob, iso) { var a = isoParts(dob), b = isoParts(iso); var y = b.y - a.y; if (b.m < a.m || (b.m === a.m && b.d < a.d)) y--; return y; }
var PRICES = {bag: 35, insurance: 24, priority: 12};
function fareTotal(c) { var p = paxCount(c.search); return legsOf(c).reduce(function (t, l) { return t + l.price * p; }, 0); }
function seatTotal(c) { return (c.seats || []).reduce(function (t, s) { return t + s.price; }, 0); }
function extrasTotal(c) { var x = c.extras || {bags: 0, insurance: false, priority_boarding: false}, p = paxCount(c.search);
  return x.bags * PRICES.bag + (x.insurance ? PRICES.insurance * p : 0) + (x.priority_boarding ? PRICES.priority * p : 0); }
function grandTotal(c) { return fareTotal(c) + seatTotal(c) + extrasTotal(c); }
