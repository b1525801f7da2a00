/* Resident parking permit – Northbridge City Council
 * Front end for the "Apply for a resident parking permit" service. */
(function () {
  "use strict";

  var TODAY = "2026-11-28";          // service date (fixed for the demo environment)
  var LATEST_START = "2027-02-28";    // permits can start up to 3 months ahead
  var SAVE_KEEP_UNTIL = "2026-12-26"; // saved answers kept for 28 days
  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

  var ADDRESSES = {
    "NB1 4QT": { zone: "A", lines: ["10 Alder Road", "12 Alder Road", "14 Alder Road", "16 Alder Road", "Flat A, 18 Alder Road", "Flat B, 18 Alder Road"] },
    "NB1 6RS": { zone: "A", lines: ["1 Beacon Street", "3 Beacon Street", "5 Beacon Street", "7 Beacon Street", "9 Beacon Street"] },
    "NB2 7HD": { zone: "B", lines: ["Flat 1, 22 Mill Lane", "Flat 2, 22 Mill Lane", "Flat 3, 22 Mill Lane", "Flat 4, 22 Mill Lane", "Flat 5, 22 Mill Lane", "Flat 6, 22 Mill Lane", "24 Mill Lane"] },
    "NB3 1EW": { zone: "C", lines: ["Flat 1, 41 Kestrel Court", "Flat 2, 41 Kestrel Court", "Flat 3, 41 Kestrel Court", "43 Kestrel Court", "45 Kestrel Court"] },
    "NB4 9JP": { zone: "D", lines: ["2 Orchard Rise", "4 Orchard Rise", "6 Orchard Rise", "The Old Forge, Orchard Rise"] },
    "NB9 3LP": { zone: null, lines: ["10 Harbour Road", "12 Harbour Road", "14 Harbour Road"] }
  };
  // [first permit, second permit in the household]
  var PRICES = { 6: [48, 70], 12: [85, 125] };

  var KEEPER = { me: "Me, at my home address", company: "A company I work for", other: "Someone else" };
  var VTYPE = { car: "Car", van: "Van (up to 3.5 tonnes)", motorcycle: "Motorcycle", large: "Motorhome, minibus or lorry" };
  var EXISTING = { "0": "None", "1": "1", "2": "2 or more" };

  // applications saved on the server (demo data)
  var SAVED_SEED = {
    "d.mensah@example.com": { code: "731904", resume_at: "vehicle", app: {
      elig: { in_zone: true, registered_keeper: "me", vehicle_type: "car", existing_permits: 0, eligible: true },
      details: { first_name: "Daniel", last_name: "Mensah", date_of_birth: "1979-02-12" },
      address: { address: "Flat 2, 41 Kestrel Court", town: "Northbridge", postcode: "NB3 1EW", zone: "C" } } },
    "ana.ferreira@example.org": { code: "208613", resume_at: "contact", app: {
      elig: { in_zone: true, registered_keeper: "me", vehicle_type: "van", existing_permits: 1, eligible: true },
      details: { first_name: "Ana", last_name: "Ferreira", date_of_birth: "1991-10-30" },
      address: { address: "5 Beacon Street", town: "Northbridge", postcode: "NB1 6RS", zone: "A" },
      vehicle: { registration: "LM19XKE", make: "Vauxhall Vivaro", duration_months: 12, start_date: "2026-12-01", price: 125 } } }
  };

  var STEPS = ["eligibility", "details", "address", "vehicle", "contact", "document"];
  var PATHS = { eligibility: "/eligibility", details: "/your-details", address: "/address", vehicle: "/vehicle", contact: "/contact", document: "/supporting-document", "check-answers": "/check-answers" };

  /* ---------- helpers ---------- */
  function esc(s) { return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]; }); }
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function clean(s) { return String(s || "").replace(/\s+/g, " ").trim(); }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function isoDate(d, m, y) {
    d = parseInt(d, 10); m = parseInt(m, 10); y = parseInt(y, 10);
    if (!d || !m || !y || y < 1000) return null;
    var dt = new Date(Date.UTC(y, m - 1, d));
    if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
    return y + "-" + pad(m) + "-" + pad(d);
  }
  function longDate(iso) { if (!iso) return ""; var p = iso.split("-"); return parseInt(p[2], 10) + " " + MONTHS[parseInt(p[1], 10) - 1] + " " + p[0]; }
  function normPostcode(s) { var t = String(s || "").toUpperCase().replace(/\s+/g, ""); return t.length > 3 ? t.slice(0, -3) + " " + t.slice(-3) : t; }
  function normPhone(s) { var t = String(s || "").replace(/[\s\-()]/g, ""); if (t.indexOf("+44") === 0) t = "0" + t.slice(3); return t; }

  function logEvent(name, values) {
    var body = { event: name };
    Object.keys(values || {}).forEach(function (k) { body[k] = values[k]; });
    try {
      fetch("/__events", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    } catch (e) { /* analytics must never break the form */ }
  }

  /* ---------- state ---------- */
  function load(key, store, fallback) { try { var v = store.getItem(key); return v ? JSON.parse(v) : fallback; } catch (e) { return fallback; } }
  var app = load("rpp.application", sessionStorage, {});
  function persist() { sessionStorage.setItem("rpp.application", JSON.stringify(app)); }
  function savedApps() { var own = load("rpp.saved", localStorage, {}); var all = JSON.parse(JSON.stringify(SAVED_SEED)); Object.keys(own).forEach(function (k) { all[k] = own[k]; }); return all; }
  function price(months, existing) { return PRICES[months] ? PRICES[months][existing >= 1 ? 1 : 0] : null; }

  function nextAfter(step) { var i = STEPS.indexOf(step); return i >= 0 && i < STEPS.length - 1 ? STEPS[i + 1] : "check-answers"; }
  function firstMissing() {
    if (!app.elig || !app.elig.eligible) return "eligibility";
    for (var i = 1; i < STEPS.length; i++) if (!app[STEPS[i]]) return STEPS[i];
    return null;
  }
  function returning() { return new URLSearchParams(location.search).get("return") === "check"; }

  /* ---------- rendering primitives ---------- */
  function errorSummary(errors) {
    var keys = Object.keys(errors || {});
    if (!keys.length) return "";
    return '<div class="govuk-error-summary" tabindex="-1" role="alert" aria-labelledby="error-summary-title">' +
      '<h2 class="govuk-error-summary__title" id="error-summary-title">There is a problem</h2><ul>' +
      keys.map(function (k) { return '<li><a href="#' + k + '" data-focus="' + k + '">' + esc(errors[k]) + "</a></li>"; }).join("") + "</ul></div>";
  }
  function errMsg(errors, key) { return errors && errors[key] ? '<p class="govuk-error-message" id="' + key + '-error"><span class="govuk-visually-hidden">Error:</span> ' + esc(errors[key]) + "</p>" : ""; }
  function groupCls(errors, key) { return "govuk-form-group" + (errors && errors[key] ? " govuk-form-group--error" : ""); }
  function textField(id, label, value, errors, opts) {
    opts = opts || {};
    return '<div class="' + groupCls(errors, id) + '">' +
      '<label class="govuk-label' + (opts.bold ? " govuk-label--s" : "") + '" for="' + id + '">' + esc(label) + "</label>" +
      (opts.hint ? '<div class="govuk-hint">' + esc(opts.hint) + "</div>" : "") + errMsg(errors, id) +
      '<input class="govuk-input ' + (opts.width || "") + (errors && errors[id] ? " govuk-input--error" : "") + '" id="' + id + '" name="' + id + '" type="' + (opts.type || "text") + '" value="' + esc(value) + '"' + (opts.autocomplete ? ' autocomplete="' + opts.autocomplete + '"' : "") + ' spellcheck="false"></div>';
  }
  function radios(id, legend, options, value, errors, opts) {
    opts = opts || {};
    var html = '<div class="' + groupCls(errors, id) + '"><fieldset class="govuk-fieldset"><legend class="govuk-fieldset__legend' + (opts.small ? " govuk-fieldset__legend--s" : "") + '">' + esc(legend) + "</legend>" +
      (opts.hint ? '<div class="govuk-hint">' + esc(opts.hint) + "</div>" : "") + errMsg(errors, id) + '<div class="govuk-radios">';
    options.forEach(function (o, i) {
      var rid = i === 0 ? id : id + "-" + (i + 1);
      html += '<div class="govuk-radios__item"><input type="radio" id="' + rid + '" name="' + id + '" value="' + esc(o[0]) + '"' + (String(value) === String(o[0]) ? " checked" : "") + (o[2] ? ' data-reveal="' + o[2].id + '"' : "") + '><label for="' + rid + '">' + esc(o[1]) + "</label></div>";
      if (o[2]) html += '<div class="govuk-radios__conditional" id="' + o[2].id + '"' + (String(value) === String(o[0]) ? "" : " hidden") + ">" + o[2].html + "</div>";
    });
    return html + "</div></fieldset></div>";
  }
  function buttons(primary, withSave) {
    return '<div class="govuk-button-group"><button type="submit" class="govuk-button" name="action" value="continue">' + esc(primary || "Continue") + "</button>" +
      (withSave ? '<button type="submit" class="govuk-button govuk-button--secondary" name="action" value="save">Save and come back later</button>' : "") + "</div>";
  }
  function formData(form) {
    var o = {};
    $all("input, select, textarea", form).forEach(function (el) {
      if (!el.name || el.type === "file") return;
      if (el.type === "radio") { if (el.checked) o[el.name] = el.value; else if (!(el.name in o)) o[el.name] = ""; }
      else if (el.type === "checkbox") o[el.name] = el.checked;
      else o[el.name] = el.value;
    });
    return o;
  }

  var main = $("#main-content");
  function show(title, html, backHref, opts) {
    opts = opts || {};
    document.title = (opts.error ? "Error: " : "") + title + " – Apply for a resident parking permit – Northbridge City Council";
    $("#back-link-slot").innerHTML = backHref ? '<a href="' + backHref + '" class="govuk-back-link" data-nav>Back</a>' : "";
    main.innerHTML = html;
    $all(".govuk-radios input[data-reveal], .govuk-radios input[type=radio]", main).forEach(function (r) {
      r.addEventListener("change", function () {
        $all('input[name="' + r.name + '"]', main).forEach(function (o) { if (o.dataset.reveal) $("#" + o.dataset.reveal).hidden = !o.checked; });
      });
    });
    if (opts.error) { var s = $(".govuk-error-summary", main); if (s) s.focus(); }
    else window.scrollTo(0, 0);
  }
  function onSubmit(handler) {
    var form = $("form.app-form", main);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var action = e.submitter && e.submitter.value ? e.submitter.value : "continue";
      handler(formData(form), action, form);
    });
  }
  // after a step is saved: back to check answers, to "save and return", or on to the next step
  function afterSave(step, action) {
    var next = nextAfter(step);
    if (returning()) next = "check-answers";
    if (action === "save") { sessionStorage.setItem("rpp.resume_at", next); go("/save"); return; }
    var missing = firstMissing();
    if (next === "check-answers" && missing && missing !== step) next = missing;
    go(PATHS[next]);
  }
  function back(path) { return returning() ? "/check-answers" : path; }
  function q(path) { return returning() ? path + "?return=check" : path; }

  /* ---------- pages ---------- */
  function pageStart() {
    show("Apply for a resident parking permit",
      '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds">' +
      '<h1>Apply for a resident parking permit</h1>' +
      '<p>Use this service to apply for a permit to park in your controlled parking zone (CPZ) in Northbridge.</p>' +
      '<p>You can apply if:</p><ul><li>you live in a controlled parking zone</li><li>the vehicle is registered to you at your address, or is a company vehicle you keep at home</li><li>your household has fewer than 2 resident permits</li></ul>' +
      '<p>A 12 month permit costs £85 (£125 for a second permit in the same household). We will send you a link to pay once your application has been checked.</p>' +
      '<p>It takes around 10 minutes. You will need:</p><ul><li>your vehicle registration number</li><li>your postcode</li><li>proof of address, such as a council tax bill (optional)</li></ul>' +
      '<a href="/eligibility" role="button" draggable="false" class="govuk-button govuk-button--start" data-nav>Start now<svg class="govuk-button__start-icon" width="17.5" height="19" viewBox="0 0 33 40" aria-hidden="true" focusable="false"><path fill="currentColor" d="M0 0h13l20 20-20 20H0l20-20z"/></svg></a>' +
      '<h2 class="govuk-heading-m">Continue a saved application</h2><p>If you saved your answers, you can <a href="/resume" data-nav>return to a saved application</a>.</p>' +
      '<h2 class="govuk-heading-m">Other ways to apply</h2><p>Call 0300 555 0199 (Monday to Friday, 9am to 5pm) or visit the Civic Centre.</p>' +
      '</div><div class="govuk-grid-column-one-third"><h2 class="govuk-heading-m">Related content</h2><ul class="govuk-body-s"><li><a href="#">Visitor parking vouchers</a></li><li><a href="#">Find your parking zone</a></li><li><a href="#">Change the vehicle on your permit</a></li><li><a href="#">Cancel a permit and get a refund</a></li></ul></div></div>');
  }

  function pageEligibility(vals, errors) {
    vals = vals || (app.elig ? { in_zone: app.elig.in_zone ? "yes" : "no", registered_keeper: app.elig.registered_keeper, vehicle_type: app.elig.vehicle_type, existing_permits: String(app.elig.existing_permits) } : {});
    show("Check you can apply", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">Eligibility</span><h1>Check you can apply</h1>' +
      radios("in_zone", "Do you live in a controlled parking zone in Northbridge?", [["yes", "Yes"], ["no", "No"]], vals.in_zone, errors, { hint: "Most streets inside the ring road are in a controlled parking zone." }) +
      radios("registered_keeper", "Who is the vehicle registered to?", [["me", KEEPER.me], ["company", KEEPER.company], ["other", KEEPER.other]], vals.registered_keeper, errors, { hint: "This is the registered keeper shown on the V5C logbook." }) +
      radios("vehicle_type", "What type of vehicle is it?", [["car", VTYPE.car], ["van", VTYPE.van], ["motorcycle", VTYPE.motorcycle], ["large", VTYPE.large]], vals.vehicle_type, errors) +
      radios("existing_permits", "How many resident permits does your household already have?", [["0", "None"], ["1", "1"], ["2", "2 or more"]], vals.existing_permits, errors, { hint: "Count every permit for your address, including ones that belong to other people you live with." }) +
      buttons("Continue", false) + "</form>", back("/"), { error: !!errors });
    onSubmit(function (v) {
      var e = {};
      if (!v.in_zone) e.in_zone = "Select yes if you live in a controlled parking zone";
      if (!v.registered_keeper) e.registered_keeper = "Select who the vehicle is registered to";
      if (!v.vehicle_type) e.vehicle_type = "Select the type of vehicle";
      if (!v.existing_permits) e.existing_permits = "Select how many permits your household already has";
      if (Object.keys(e).length) return pageEligibility(v, e);
      var el = { in_zone: v.in_zone === "yes", registered_keeper: v.registered_keeper, vehicle_type: v.vehicle_type, existing_permits: parseInt(v.existing_permits, 10) };
      el.eligible = el.in_zone && el.registered_keeper !== "other" && el.vehicle_type !== "large" && el.existing_permits < 2;
      app.elig = el;
      if (app.vehicle) app.vehicle.price = price(app.vehicle.duration_months, el.existing_permits);
      persist();
      logEvent("eligibility_checked", el);
      go(el.eligible && returning() ? "/check-answers" : "/eligibility/result");
    });
  }

  function pageEligibilityResult() {
    var el = app.elig;
    if (!el) return go("/eligibility");
    if (el.eligible) {
      show("You can apply", '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><h1>You can apply for a resident parking permit</h1>' +
        '<p>Based on your answers, you can apply for a permit for your ' + esc(VTYPE[el.vehicle_type].toLowerCase().replace(/ \(.*/, "")) + ".</p>" +
        (el.existing_permits === 1 ? '<div class="govuk-inset-text">This will be the second permit for your household, so it costs more: £70 for 6 months or £125 for 12 months.</div>' : "") +
        (el.registered_keeper === "company" ? '<div class="govuk-inset-text">We may ask for a letter from your employer confirming you keep the vehicle at home.</div>' : "") +
        '<a href="/your-details" role="button" class="govuk-button" data-nav>Continue</a></div></div>', "/eligibility");
      return;
    }
    var reasons = [];
    if (!el.in_zone) reasons.push("you do not live in a controlled parking zone");
    if (el.registered_keeper === "other") reasons.push("the vehicle is not registered to you or to a company you work for");
    if (el.vehicle_type === "large") reasons.push("motorhomes, minibuses and lorries cannot get a resident permit");
    if (el.existing_permits >= 2) reasons.push("your household already has the maximum of 2 resident permits");
    show("You cannot apply", '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><h1>You cannot apply for a resident parking permit</h1><p>This is because:</p><ul>' +
      reasons.map(function (r) { return "<li>" + esc(r) + "</li>"; }).join("") + "</ul>" +
      '<p>You might be able to <a href="#">buy visitor parking vouchers</a> or <a href="#">rent a space in a council car park</a>.</p><p><a href="/eligibility" data-nav>Change your answers</a></p></div></div>', "/eligibility");
  }

  function selectField(id, label, options, value, hasError) {
    return '<div class="govuk-date-input__item"><label class="govuk-label" for="' + id + '">' + label + '</label><select class="govuk-select' + (hasError ? " govuk-select--error" : "") + '" id="' + id + '" name="' + id + '"><option value="">' + label + "</option>" +
      options.map(function (o) { return '<option value="' + o[0] + '"' + (String(value) === String(o[0]) ? " selected" : "") + ">" + o[1] + "</option>"; }).join("") + "</select></div>";
  }

  function pageDetails(vals, errors) {
    if (!vals) {
      var d = app.details || {}; var p = d.date_of_birth ? d.date_of_birth.split("-") : ["", "", ""];
      vals = { first_name: d.first_name || "", last_name: d.last_name || "", "dob-day": p[2] ? parseInt(p[2], 10) : "", "dob-month": p[1] ? parseInt(p[1], 10) : "", "dob-year": p[0] };
    }
    var days = [], months = [], years = [];
    for (var i = 1; i <= 31; i++) days.push([i, i]);
    MONTHS.forEach(function (m, j) { months.push([j + 1, m]); });
    for (var y = 2012; y >= 1920; y--) years.push([y, y]);
    show("Your details", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">About you</span><h1>Your details</h1>' +
      textField("first_name", "First name", vals.first_name, errors, { autocomplete: "given-name" }) +
      textField("last_name", "Last name", vals.last_name, errors, { autocomplete: "family-name" }) +
      '<div class="' + groupCls(errors, "dob-day") + '"><fieldset class="govuk-fieldset" role="group"><legend class="govuk-fieldset__legend govuk-fieldset__legend--s">Date of birth</legend><div class="govuk-hint">You must be 17 or over to apply.</div>' + errMsg(errors, "dob-day") +
      '<div class="govuk-date-input">' + selectField("dob-day", "Day", days, vals["dob-day"], errors && errors["dob-day"]) + selectField("dob-month", "Month", months, vals["dob-month"], errors && errors["dob-day"]) + selectField("dob-year", "Year", years, vals["dob-year"], errors && errors["dob-day"]) + "</div></fieldset></div>" +
      buttons("Continue", true) + "</form>", back("/eligibility/result"), { error: !!errors });
    onSubmit(function (v, action) {
      var e = {};
      v.first_name = clean(v.first_name); v.last_name = clean(v.last_name);
      if (!v.first_name) e.first_name = "Enter your first name";
      if (!v.last_name) e.last_name = "Enter your last name";
      var dob = isoDate(v["dob-day"], v["dob-month"], v["dob-year"]);
      if (!v["dob-day"] || !v["dob-month"] || !v["dob-year"]) e["dob-day"] = "Enter your date of birth, including the day, month and year";
      else if (!dob) e["dob-day"] = "Date of birth must be a real date";
      else { var t = TODAY.split("-"); var adult = (parseInt(t[0], 10) - 17) + "-" + t[1] + "-" + t[2]; if (dob > adult) e["dob-day"] = "You must be 17 or over to apply for a resident parking permit"; }
      if (Object.keys(e).length) return pageDetails(v, e);
      app.details = { first_name: v.first_name, last_name: v.last_name, date_of_birth: dob };
      persist();
      logEvent("personal_details_saved", app.details);
      afterSave("details", action);
    });
  }

  var lookup = null; // { postcode, zone, lines }
  function pageAddress(vals, errors) {
    if (!vals) {
      vals = { postcode: app.address ? app.address.postcode : "", address: app.address ? app.address.address : "" };
      lookup = app.address ? { postcode: app.address.postcode, zone: app.address.zone, lines: ADDRESSES[app.address.postcode].lines } : null;
    }
    var list = "";
    if (lookup && lookup.lines) {
      list = '<div class="' + groupCls(errors, "address") + '"><label class="govuk-label govuk-label--s" for="address">Select an address</label>' + errMsg(errors, "address") +
        '<select class="govuk-select" id="address" name="address" style="min-width:60%"><option value="">' + lookup.lines.length + " addresses found</option>" +
        lookup.lines.map(function (l) { return '<option value="' + esc(l) + '"' + (l === vals.address ? " selected" : "") + ">" + esc(l + ", Northbridge, " + lookup.postcode) + "</option>"; }).join("") + "</select></div>" +
        '<details><summary>I cannot find my address in the list</summary><div class="details-text">If your address is not listed, it may not be eligible for a resident permit. Call the parking team on 0300 555 0199 to check.</div></details><br>';
    }
    show("What is your address?", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">About you</span><h1>What is your address?</h1><p>This must be the address where you keep the vehicle overnight.</p>' +
      '<div class="' + groupCls(errors, "postcode") + '"><label class="govuk-label govuk-label--s" for="postcode">Postcode</label>' + errMsg(errors, "postcode") +
      '<input class="govuk-input govuk-input--w10" id="postcode" name="postcode" type="text" autocomplete="postal-code" value="' + esc(vals.postcode) + '"> ' +
      '<button type="button" class="govuk-button govuk-button--secondary" id="find-address" style="margin-bottom:0">Find address</button></div>' +
      list + buttons("Continue", true) + "</form>", back("/your-details"), { error: !!errors });
    $("#find-address").addEventListener("click", function () {
      var v = formData($("form.app-form", main)); var pc = normPostcode(v.postcode); var e = {};
      lookup = null;
      if (!pc) e.postcode = "Enter a postcode";
      else if (!/^[A-Z]{1,2}[0-9][0-9A-Z]? [0-9][A-Z]{2}$/.test(pc)) e.postcode = "Enter a real postcode";
      else if (!ADDRESSES[pc]) e.postcode = "We could not find any addresses for " + pc + ". Check the postcode and try again";
      else if (!ADDRESSES[pc].zone) e.postcode = pc + " is not in a controlled parking zone. You can only get a resident permit for an address in a controlled parking zone";
      else lookup = { postcode: pc, zone: ADDRESSES[pc].zone, lines: ADDRESSES[pc].lines };
      pageAddress({ postcode: lookup ? pc : v.postcode, address: "" }, Object.keys(e).length ? e : null);
      if (lookup) $("#address").focus();
    });
    onSubmit(function (v, action) {
      var e = {};
      if (!lookup) e.postcode = "Enter your postcode and select Find address";
      else if (normPostcode(v.postcode) !== lookup.postcode) e.postcode = "Select Find address to search for the new postcode";
      else if (!v.address) e.address = "Select your address";
      if (Object.keys(e).length) return pageAddress(v, e);
      app.address = { address: v.address, town: "Northbridge", postcode: lookup.postcode, zone: lookup.zone };
      persist();
      logEvent("address_saved", app.address);
      afterSave("address", action);
    });
  }

  function pageVehicle(vals, errors) {
    var existing = app.elig ? app.elig.existing_permits : 0;
    if (!vals) {
      var v0 = app.vehicle || {}; var s = v0.start_date ? v0.start_date.split("-") : ["", "", ""];
      vals = { registration: v0.registration || "", make: v0.make || "", duration: v0.duration_months || "", "start-day": s[2] ? parseInt(s[2], 10) : "", "start-month": s[1] ? parseInt(s[1], 10) : "", "start-year": s[0] };
    }
    function dateItem(id, label, w) { return '<div class="govuk-date-input__item"><label class="govuk-label" for="' + id + '">' + label + '</label><input class="govuk-input ' + w + (errors && errors["start-day"] ? " govuk-input--error" : "") + '" id="' + id + '" name="' + id + '" type="text" inputmode="numeric" value="' + esc(vals[id]) + '"></div>'; }
    show("Your vehicle and permit", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">Your permit</span><h1>Your vehicle and permit</h1>' +
      textField("registration", "Vehicle registration number", vals.registration, errors, { bold: true, width: "govuk-input--w10", hint: "For example, CU57 ABC" }) +
      '<div class="govuk-form-group"><div class="govuk-label govuk-label--s">Vehicle make and model (optional)</div>' +
      '<input class="govuk-input" name="make" type="text" placeholder="For example, Ford Fiesta" value="' + esc(vals.make) + '"></div>' +
      radios("duration", "How long do you want the permit for?", [["6", "6 months (£" + price(6, existing) + ")"], ["12", "12 months (£" + price(12, existing) + ")"]], vals.duration, errors, { small: true }) +
      '<div class="' + groupCls(errors, "start-day") + '"><fieldset class="govuk-fieldset" role="group"><legend class="govuk-fieldset__legend govuk-fieldset__legend--s">When do you want the permit to start?</legend>' +
      '<div class="govuk-hint">For example, 1 12 2026. The permit can start today (' + longDate(TODAY) + ') or up to 3 months from today.</div>' + errMsg(errors, "start-day") +
      '<div class="govuk-date-input">' + dateItem("start-day", "Day", "govuk-input--w2") + dateItem("start-month", "Month", "govuk-input--w2") + dateItem("start-year", "Year", "govuk-input--w4") + "</div></fieldset></div>" +
      buttons("Continue", true) + "</form>", back("/address"), { error: !!errors });
    onSubmit(function (v, action) {
      var e = {};
      var reg = String(v.registration || "").toUpperCase().replace(/\s+/g, "");
      if (!reg) e.registration = "Enter the vehicle registration number";
      else if (!/^[A-Z0-9]{2,8}$/.test(reg)) e.registration = "Enter a real registration number, like CU57 ABC";
      if (!v.duration) e.duration = "Select how long you want the permit for";
      var sd = isoDate(v["start-day"], v["start-month"], v["start-year"]);
      if (!clean(v["start-day"]) || !clean(v["start-month"]) || !clean(v["start-year"])) e["start-day"] = "Enter the date you want the permit to start";
      else if (!sd) e["start-day"] = "The start date must be a real date";
      else if (sd < TODAY) e["start-day"] = "The start date must be today or in the future";
      else if (sd > LATEST_START) e["start-day"] = "The start date must be on or before " + longDate(LATEST_START);
      if (Object.keys(e).length) return pageVehicle(v, e);
      var months = parseInt(v.duration, 10);
      app.vehicle = { registration: reg };
      if (clean(v.make)) app.vehicle.make = clean(v.make);
      app.vehicle.duration_months = months; app.vehicle.start_date = sd; app.vehicle.price = price(months, existing);
      persist();
      logEvent("vehicle_details_saved", app.vehicle);
      afterSave("vehicle", action);
    });
  }

  function pageContact(vals, errors) {
    if (!vals) { var c = app.contact || {}; vals = { method: c.method || "", email: c.email || "", phone: c.phone || "", reminders: !!c.reminders }; }
    show("How should we contact you?", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">About you</span><h1>How should we contact you about your permit?</h1>' +
      radios("method", "How should we contact you about your permit?", [
        ["email", "Email", { id: "conditional-email", html: textField("email", "Email address", vals.email, errors, { type: "email", autocomplete: "email" }) }],
        ["text", "Text message", { id: "conditional-phone", html: textField("phone", "UK mobile number", vals.phone, errors, { type: "tel", width: "govuk-input--w10", autocomplete: "tel" }) }],
        ["post", "Post"]], vals.method, errors, { small: true, hint: "We will use this to send your payment link and tell you when your permit is ready. Letters go to the address you gave us." }) +
      '<div class="govuk-form-group"><div class="govuk-checkboxes"><div class="govuk-checkboxes__item"><input type="checkbox" id="reminders" name="reminders"' + (vals.reminders ? " checked" : "") + '><label for="reminders">Send me a reminder 2 weeks before my permit runs out</label></div></div></div>' +
      buttons("Continue", true) + "</form>", back("/vehicle"), { error: !!errors });
    onSubmit(function (v, action) {
      var e = {};
      var email = clean(v.email).toLowerCase(), phone = normPhone(v.phone);
      if (!v.method) e.method = "Select how we should contact you";
      else if (v.method === "email" && !email) e.email = "Enter your email address";
      else if (v.method === "email" && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) e.email = "Enter an email address in the correct format, like name@example.com";
      else if (v.method === "text" && !phone) e.phone = "Enter your mobile number";
      else if (v.method === "text" && !/^07\d{9}$/.test(phone)) e.phone = "Enter a UK mobile number, like 07700 900 982";
      if (Object.keys(e).length) return pageContact(v, e);
      app.contact = { method: v.method };
      if (v.method === "email") app.contact.email = email;
      if (v.method === "text") app.contact.phone = phone;
      app.contact.reminders = !!v.reminders;
      persist();
      logEvent("contact_preferences_saved", app.contact);
      afterSave("contact", action);
    });
  }

  function pageDocument(errors, pending) {
    var current = pending !== undefined ? pending : (app.document && app.document.uploaded ? app.document.file_name : "");
    show("Upload proof of address", errorSummary(errors) +
      '<form class="app-form" novalidate><span class="govuk-caption-l">Supporting document</span><h1>Upload proof of address (optional)</h1>' +
      '<p>You can upload a council tax bill, tenancy agreement or a utility bill from the last 3 months. If you do not upload one now, we may ask you for it later.</p>' +
      (current ? '<div class="nb-uploaded"><span aria-hidden="true">&#128196;</span><span><strong>Uploaded:</strong> ' + esc(current) + '</span><button type="button" class="nb-uploaded__remove" aria-label="Remove file">&#10005;</button></div>' : "") +
      '<div class="' + groupCls(errors, "file") + '"><label class="govuk-label govuk-label--s" for="file">' + (current ? "Upload a different file" : "Upload a file") + '</label><div class="govuk-hint">PDF, JPG or PNG, no bigger than 10MB</div>' + errMsg(errors, "file") +
      '<input class="govuk-file-upload" type="file" id="file" name="file" accept=".pdf,.jpg,.jpeg,.png"></div>' +
      buttons("Continue", true) + "</form>", back("/contact"), { error: !!errors });
    var chosen = current;
    $("#file").addEventListener("change", function () {
      var f = this.files && this.files[0]; if (!f) return;
      if (!/\.(pdf|jpe?g|png)$/i.test(f.name)) return pageDocument({ file: "The selected file must be a PDF, JPG or PNG" }, chosen);
      if (f.size > 10 * 1024 * 1024) return pageDocument({ file: "The selected file must be smaller than 10MB" }, chosen);
      pageDocument(null, f.name);
    });
    var rm = $(".nb-uploaded__remove", main);
    if (rm) rm.addEventListener("click", function () { pageDocument(null, ""); });
    onSubmit(function (v, action) {
      app.document = chosen ? { uploaded: true, file_name: chosen } : { uploaded: false };
      persist();
      logEvent("supporting_document_saved", app.document);
      afterSave("document", action);
    });
  }

  function row(key, value, changeText, href) {
    return '<div class="govuk-summary-list__row"><dt class="govuk-summary-list__key">' + esc(key) + '</dt><dd class="govuk-summary-list__value">' + value + "</dd>" +
      '<dd class="govuk-summary-list__actions">' + (href ? '<a href="' + href + '?return=check" data-nav>Change<span class="govuk-visually-hidden"> ' + esc(changeText) + "</span></a>" : "") + "</dd></div>";
  }
  function pageCheck(errors) {
    var missing = firstMissing();
    if (missing) return go(PATHS[missing]);
    var el = app.elig, d = app.details, a = app.address, v = app.vehicle, c = app.contact, doc = app.document;
    var contactText = c.method === "email" ? "Email: " + esc(c.email) : c.method === "text" ? "Text message: " + esc(c.phone) : "Post";
    show("Check your answers before sending your application", errorSummary(errors) +
      '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><h1>Check your answers before sending your application</h1>' +
      '<h2 class="govuk-heading-m">Eligibility</h2><dl class="govuk-summary-list">' +
      row("Lives in a controlled parking zone", el.in_zone ? "Yes" : "No", "controlled parking zone", "/eligibility") +
      row("Vehicle registered to", esc(KEEPER[el.registered_keeper]), "who the vehicle is registered to", "/eligibility") +
      row("Vehicle type", esc(VTYPE[el.vehicle_type]), "vehicle type", "/eligibility") +
      row("Permits already in household", esc(EXISTING[String(el.existing_permits)]), "number of permits in household", "/eligibility") + "</dl>" +
      '<h2 class="govuk-heading-m">About you</h2><dl class="govuk-summary-list">' +
      row("Name", esc(d.first_name + " " + d.last_name), "name", "/your-details") +
      row("Date of birth", esc(longDate(d.date_of_birth)), "date of birth", "/your-details") +
      row("Address", esc(a.address) + "<br>" + esc(a.town) + "<br>" + esc(a.postcode), "address", "/address") +
      row("Contact preference", contactText, "contact preference", "/contact") +
      row("Renewal reminder", c.reminders ? "Yes" : "No", "renewal reminder", "/contact") + "</dl>" +
      '<h2 class="govuk-heading-m">Vehicle and permit</h2><dl class="govuk-summary-list">' +
      row("Vehicle registration number", esc(v.registration), "vehicle registration number", "/vehicle") +
      row("Vehicle make and model", v.make ? esc(v.make) : "Not provided", "vehicle make and model", "/vehicle") +
      row("Permit length", v.duration_months + " months", "permit length", "/vehicle") +
      row("Start date", esc(longDate(v.start_date)), "start date", "/vehicle") +
      row("Zone", "Zone " + esc(a.zone), "", "") +
      row("Cost", "£" + price(v.duration_months, el.existing_permits), "", "") + "</dl>" +
      '<h2 class="govuk-heading-m">Supporting document</h2><dl class="govuk-summary-list">' +
      row("Proof of address", doc.uploaded ? esc(doc.file_name) : "Not uploaded", "proof of address", "/supporting-document") + "</dl>" +
      '<h2 class="govuk-heading-m">Now send your application</h2><p>By sending this application you confirm that, to the best of your knowledge, the details you are providing are correct. Giving false information to get a permit is an offence.</p>' +
      '<form class="app-form" novalidate><div class="' + groupCls(errors, "declaration") + '">' + errMsg(errors, "declaration") + '<div class="govuk-checkboxes__item"><input type="checkbox" id="declaration" name="declaration"><label for="declaration">I confirm that the information I have given is correct</label></div></div>' +
      buttons("Accept and send application", true) + "</form></div></div>", "/supporting-document", { error: !!errors });
    onSubmit(function (f, action) {
      if (action === "save") { sessionStorage.setItem("rpp.resume_at", "check-answers"); return go("/save"); }
      if (!f.declaration) return pageCheck({ declaration: "Confirm that the information you have given is correct" });
      var all = {
        first_name: d.first_name, last_name: d.last_name, date_of_birth: d.date_of_birth,
        address: a.address, town: a.town, postcode: a.postcode, zone: a.zone,
        registered_keeper: el.registered_keeper, vehicle_type: el.vehicle_type, existing_permits: el.existing_permits,
        registration: v.registration
      };
      if (v.make) all.make = v.make;
      all.duration_months = v.duration_months; all.start_date = v.start_date; all.price = price(v.duration_months, el.existing_permits);
      all.contact_method = c.method;
      if (c.email) all.email = c.email;
      if (c.phone) all.phone = c.phone;
      all.reminders = c.reminders; all.document_uploaded = doc.uploaded;
      if (doc.uploaded) all.document_file_name = doc.file_name;
      logEvent("application_submitted", all);
      var h = 7; JSON.stringify(all).split("").forEach(function (ch) { h = (h * 31 + ch.charCodeAt(0)) % 1000000; });
      sessionStorage.setItem("rpp.confirmation", JSON.stringify({ reference: "RPP-" + pad(Math.floor(h / 10000)) + "-" + ("0000" + (h % 10000)).slice(-4), contact: c, zone: a.zone }));
      app = {}; persist();
      go("/confirmation");
    });
  }

  function pageConfirmation() {
    var c = load("rpp.confirmation", sessionStorage, null);
    if (!c) return go("/");
    var how = c.contact.method === "email" ? "by email to " + esc(c.contact.email) : c.contact.method === "text" ? "by text message to " + esc(c.contact.phone) : "by post";
    show("Application submitted", '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><div class="govuk-panel"><h1>Application submitted</h1><div class="govuk-panel__body">Your reference number<br><strong>' + esc(c.reference) + "</strong></div></div>" +
      '<p><button type="button" class="nb-icon-btn" aria-label="Print this page" onclick="window.print()">&#128424;</button></p>' +
      "<h2 class=\"govuk-heading-m\">What happens next</h2><p>We will check your application within 5 working days. We will contact you " + how + " with a link to pay.</p>" +
      "<p>Your permit will be linked to your vehicle registration – there is nothing to display in your windscreen. Until your permit starts, you must pay to park in zone " + esc(c.zone) + ".</p>" +
      '<p><a href="#">What did you think of this service?</a> (takes 30 seconds)</p></div></div>');
  }

  function pageSave(errors, vals) {
    vals = vals || {};
    var resumeAt = sessionStorage.getItem("rpp.resume_at") || firstMissing() || "check-answers";
    show("Save your application", errorSummary(errors) +
      '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><form class="app-form" novalidate><h1>Save your application and come back later</h1>' +
      "<p>We will send you an email with a link to your application and a security code. Your answers will be saved until " + longDate(SAVE_KEEP_UNTIL) + ".</p>" +
      textField("save-email", "Email address", vals["save-email"] || "", errors, { type: "email", autocomplete: "email", bold: true }) +
      '<div class="govuk-button-group"><button type="submit" class="govuk-button">Save application</button><a href="' + PATHS[resumeAt] + '" data-nav>Cancel</a></div></form></div></div>', PATHS[resumeAt], { error: !!errors });
    onSubmit(function (v) {
      var email = clean(v["save-email"]).toLowerCase();
      if (!email) return pageSave({ "save-email": "Enter your email address" }, v);
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return pageSave({ "save-email": "Enter an email address in the correct format, like name@example.com" }, v);
      var own = load("rpp.saved", localStorage, {});
      own[email] = { code: "560127", resume_at: resumeAt, app: app };
      localStorage.setItem("rpp.saved", JSON.stringify(own));
      logEvent("application_saved", { email: email, resume_at: resumeAt });
      sessionStorage.setItem("rpp.saved_email", email);
      go("/saved");
    });
  }
  function pageSaved() {
    show("Application saved", '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><div class="govuk-panel"><h1>Your application has been saved</h1></div>' +
      "<p>We have sent an email to <strong>" + esc(sessionStorage.getItem("rpp.saved_email") || "") + "</strong> with a link to your application and a security code.</p>" +
      "<p>Your answers will be kept until " + longDate(SAVE_KEEP_UNTIL) + '. After that you will need to start again.</p><p><a href="/" data-nav>Return to the start page</a></p></div></div>');
  }

  function pageResume(errors, vals) {
    vals = vals || {};
    show("Return to a saved application", errorSummary(errors) +
      '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><form class="app-form" novalidate><h1>Return to a saved application</h1>' +
      textField("resume-email", "Email address", vals["resume-email"] || "", errors, { type: "email", bold: true, hint: "Use the email address you gave when you saved your application." }) +
      buttons("Continue", false) + "</form></div></div>", "/", { error: !!errors });
    onSubmit(function (v) {
      var email = clean(v["resume-email"]).toLowerCase();
      if (!email) return pageResume({ "resume-email": "Enter your email address" }, v);
      if (!savedApps()[email]) return pageResume({ "resume-email": "We cannot find a saved application for this email address. Saved applications are deleted after 28 days" }, v);
      sessionStorage.setItem("rpp.resume_email", email);
      go("/resume/code");
    });
  }
  function pageResumeCode(errors) {
    var email = sessionStorage.getItem("rpp.resume_email");
    if (!email) return go("/resume");
    show("Enter your security code", errorSummary(errors) +
      '<div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds"><form class="app-form" novalidate><h1>Check your email</h1>' +
      "<p>We sent a 6-digit security code to <strong>" + esc(email) + "</strong> when you saved your application.</p>" +
      '<div class="' + groupCls(errors, "code") + '">' + errMsg(errors, "code") + '<input class="govuk-input govuk-input--w5" id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" placeholder="6-digit code"></div>' +
      buttons("Continue", false) + "</form></div></div>", "/resume", { error: !!errors });
    onSubmit(function (v) {
      var code = String(v.code || "").replace(/\s+/g, "");
      var rec = savedApps()[email];
      if (!code) return pageResumeCode({ code: "Enter the security code" });
      if (!rec || rec.code !== code) return pageResumeCode({ code: "The security code is not correct. Check your email and try again" });
      app = JSON.parse(JSON.stringify(rec.app)); persist();
      go(PATHS[rec.resume_at] || "/check-answers");
    });
  }

  var SEARCH_INDEX = [
    ["Resident parking permits", "Apply for, renew or cancel a resident parking permit."],
    ["Visitor parking vouchers", "Buy visitor vouchers for people visiting you in a controlled parking zone."],
    ["Controlled parking zone map", "Find out which zone your street is in and when the restrictions apply."],
    ["Pay a penalty charge notice", "Pay or challenge a parking fine."],
    ["Council Tax bands and charges", "How much Council Tax you pay and how to pay it."]
  ];
  function pageSearch() {
    var term = clean(new URLSearchParams(location.search).get("q"));
    var words = term.toLowerCase().split(" ").filter(Boolean);
    var hits = SEARCH_INDEX.filter(function (r) { var t = (r[0] + " " + r[1]).toLowerCase(); return words.some(function (w) { return t.indexOf(w) >= 0; }); });
    show("Search", "<h1>Search results</h1><p>" + hits.length + " results for <strong>" + esc(term) + "</strong></p>" +
      hits.map(function (r) { return '<div class="nb-result"><a href="#">' + esc(r[0]) + "</a><p>" + esc(r[1]) + "</p></div>"; }).join(""), "/");
  }

  /* ---------- router ---------- */
  var ROUTES = {
    "/": pageStart, "/eligibility": function () { pageEligibility(); }, "/eligibility/result": pageEligibilityResult,
    "/your-details": function () { pageDetails(); }, "/address": function () { pageAddress(); }, "/vehicle": function () { pageVehicle(); },
    "/contact": function () { pageContact(); }, "/supporting-document": function () { pageDocument(); }, "/check-answers": function () { pageCheck(); },
    "/confirmation": pageConfirmation, "/save": function () { pageSave(); }, "/saved": pageSaved, "/resume": function () { pageResume(); },
    "/resume/code": function () { pageResumeCode(); }, "/search": pageSearch
  };
  function render() { (ROUTES[location.pathname.replace(/\/+$/, "") || "/"] || pageStart)(); }
  function go(path) { history.pushState({}, "", path); render(); }
  window.addEventListener("popstate", render);
  document.addEventListener("click", function (e) {
    var a = e.target.closest("a");
    if (!a) return;
    if (a.dataset.focus) { e.preventDefault(); var el = document.getElementById(a.dataset.focus); if (el) el.focus(); return; }
    if (a.hasAttribute("data-nav")) { e.preventDefault(); go(a.getAttribute("href")); }
  });
  $("#site-search").addEventListener("submit", function (e) {
    e.preventDefault();
    var term = clean(this.q.value);
    if (!term) return;
    logEvent("site_search", { query: term.toLowerCase() });
    go("/search?q=" + encodeURIComponent(term));
  });

  /* ---------- cookie banner ---------- */
  function cookieBanner() {
    var slot = $("#cookie-banner"), choice = localStorage.getItem("nb.cookies");
    if (choice === "hidden") { slot.innerHTML = ""; return; }
    if (choice) {
      slot.innerHTML = '<div class="nb-cookie" role="region" aria-label="Cookie banner"><div class="govuk-width-container"><p>You have ' + choice + ' additional cookies. You can <a href="#">change your cookie settings</a> at any time.</p><button type="button" class="govuk-button govuk-button--secondary" id="cookie-hide" style="margin-bottom:0">Hide cookie message</button></div></div>';
      $("#cookie-hide").addEventListener("click", function () { localStorage.setItem("nb.cookies", "hidden"); cookieBanner(); });
      return;
    }
    slot.innerHTML = '<div class="nb-cookie" role="region" aria-label="Cookie banner"><div class="govuk-width-container"><h2>Cookies on northbridge.gov.uk</h2>' +
      "<p>We use some essential cookies to make this service work.</p><p>We would also like to use analytics cookies so we can understand how you use the service and make improvements.</p>" +
      '<div class="nb-cookie__actions"><button type="button" class="govuk-button" data-cookie="accepted" style="margin-bottom:0">Accept additional cookies</button><button type="button" class="govuk-button" data-cookie="rejected" style="margin-bottom:0">Reject additional cookies</button><a href="#">View cookies</a></div></div></div>';
    $all("[data-cookie]", slot).forEach(function (b) { b.addEventListener("click", function () { localStorage.setItem("nb.cookies", b.dataset.cookie); cookieBanner(); }); });
  }

  cookieBanner();
  render();
})();
