/* Ridgeline Outfitters storefront — shared script (header, cart, popups, state) */
var RL = (function () {
  var TODAY = "2026-11-28"; // store clock (fixed for the demo environment)
  var MAX_QTY = 5;

  var CATEGORIES = [
    { id: "tents", name: "Tents" }, { id: "sleeping", name: "Sleeping bags" },
    { id: "packs", name: "Backpacks" }, { id: "jackets", name: "Jackets" },
    { id: "footwear", name: "Footwear" }, { id: "cooking", name: "Camp kitchen" },
    { id: "accessories", name: "Accessories" }
  ];

  // colours for the product art
  var ART = { tents: "#dfe8d8", sleeping: "#f1e0d2", packs: "#dbe4ee", jackets: "#e9dde9", footwear: "#ece3d3", cooking: "#e3e6e8", accessories: "#e6eedd" };

  var PRODUCTS = [
    { sku: "RL-TNT-201", name: "Trailhead 2 Backpacking Tent", cat: "tents", price: 289, rating: 4.6, reviews: 128, added: "2026-03-02", colors: ["Sage", "Sand"], sizes: null,
      desc: "A freestanding two-person tent with two doors, two vestibules and a weight of 1.9 kg packed." },
    { sku: "RL-TNT-402", name: "Basecamp 4 Family Tent", cat: "tents", price: 459, rating: 4.4, reviews: 61, added: "2025-05-10", colors: null, sizes: null,
      desc: "Room for four with 1.9 m of headroom, a zip-off porch and colour-coded poles." },
    { sku: "RL-SLP-110", name: "Cirrus 20°F Down Sleeping Bag", cat: "sleeping", price: 229, rating: 4.8, reviews: 203, added: "2025-09-18", colors: null, sizes: ["Regular", "Long"],
      desc: "650-fill responsibly sourced down, comfort rated to 28°F, lower limit 20°F." },
    { sku: "RL-SLP-115", name: "Stratus Synthetic Sleeping Bag", cat: "sleeping", price: 119, was: 149, rating: 4.3, reviews: 87, added: "2024-08-01", colors: null, sizes: ["Regular", "Long"],
      desc: "Warm when wet. Synthetic fill rated to 35°F, packs to the size of a loaf of bread." },
    { sku: "RL-PCK-330", name: "Summit 38L Backpack", cat: "packs", price: 165, rating: 4.7, reviews: 154, added: "2026-01-20", colors: ["Slate", "Rust"], sizes: ["S/M", "M/L"],
      desc: "A light alpine pack with a removable lid, ice-axe loops and a ventilated back panel." },
    { sku: "RL-PCK-322", name: "Daybreak 22L Daypack", cat: "packs", price: 79, rating: 4.5, reviews: 312, added: "2024-04-11", colors: ["Black", "Teal", "Mustard"], sizes: null,
      desc: "Everyday hiking pack with a hydration sleeve, hip-belt pockets and a rain cover." },
    { sku: "RL-JKT-510", name: "Alpine Shell Jacket", cat: "jackets", price: 249, rating: 4.6, reviews: 96, added: "2026-10-05", colors: ["Slate", "Glacier Blue", "Red Clay"], sizes: ["XS", "S", "M", "L", "XL"],
      soldOut: ["XL / Red Clay", "XS / Glacier Blue"], desc: "Three-layer waterproof, breathable shell with pit zips and a helmet-compatible hood." },
    { sku: "RL-JKT-520", name: "Ember Down Jacket", cat: "jackets", price: 199, was: 239, rating: 4.7, reviews: 141, added: "2025-10-12", colors: ["Black", "Olive"], sizes: ["S", "M", "L", "XL"],
      desc: "800-fill down puffy that stuffs into its own pocket." },
    { sku: "RL-FTW-610", name: "Granite Mid Hiking Boot", cat: "footwear", price: 179, rating: 4.5, reviews: 233, added: "2025-02-14", colors: null, sizes: ["7", "8", "9", "10", "11", "12"],
      desc: "Waterproof leather mid boot with a grippy lugged outsole. US men's sizing." },
    { sku: "RL-FTW-620", name: "Trail Runner GTX", cat: "footwear", price: 145, rating: 4.4, reviews: 118, added: "2026-09-22", colors: ["Grey/Lime", "Navy"], sizes: ["7", "8", "9", "10", "11", "12"],
      desc: "Fast and light waterproof trail shoe with a rock plate. US men's sizing." },
    { sku: "RL-CKG-710", name: "Flint Compact Stove", cat: "cooking", price: 59, rating: 4.6, reviews: 402, added: "2023-06-30", colors: null, sizes: null,
      desc: "Boils a litre in 3.5 minutes. Folds down to fit inside a 450 ml mug." },
    { sku: "RL-CKG-720", name: "Titanium Mug 450 ml", cat: "cooking", price: 34, rating: 4.9, reviews: 188, added: "2023-06-30", colors: null, sizes: null,
      desc: "Single-wall titanium mug with folding handles and a lid. 72 g." },
    { sku: "RL-CKG-730", name: "Clearstream Filter Bottle 1L", cat: "cooking", price: 39, rating: 4.2, reviews: 74, added: "2026-11-02", colors: null, sizes: null,
      desc: "Squeeze bottle with a 0.1 micron hollow-fibre filter. Good for 1,500 litres." },
    { sku: "RL-ACC-810", name: "Merino Trail Socks (2-pack)", cat: "accessories", price: 28, rating: 4.7, reviews: 520, added: "2024-01-05", colors: null, sizes: ["S", "M", "L"],
      desc: "Cushioned merino blend hiking socks. Sold in pairs of two." },
    { sku: "RL-ACC-820", name: "Beacon 400 Headlamp", cat: "accessories", price: 42, rating: 4.5, reviews: 266, added: "2025-07-07", colors: null, sizes: null,
      desc: "400 lumens, red night mode, USB-C rechargeable, IPX7." },
    { sku: "RL-ACC-830", name: "Carbon Trekking Poles", cat: "accessories", price: 129, rating: 4.6, reviews: 58, added: "2025-03-15", colors: null, sizes: null, outOfStock: true,
      desc: "Three-section carbon poles with cork grips. 470 g per pair." }
  ];

  var COUPONS = {
    WELCOME10: { type: "pct", value: 10, label: "10% off your order" },
    TRAIL20: { type: "amt", value: 20, min: 150, label: "$20 off orders of $150+" },
    FREESHIP: { type: "ship", value: 0, label: "Free standard shipping" },
    SUMMER25: { expired: "2026-09-30" }
  };

  var SHIPPING = [
    { id: "standard", name: "Standard", eta: "5–7 business days", price: 6.95, freeOver: 100, arrives: "Dec 7" },
    { id: "express", name: "Express", eta: "2–3 business days", price: 14.95, arrives: "Dec 2" },
    { id: "next_day", name: "Next day", eta: "Order by 2 pm", price: 24.95, arrives: "Nov 30" }
  ];

  var SEED = {
    rl_cart: [],
    rl_wishlist: ["RL-JKT-520", "RL-TNT-402"],
    rl_profile: { first_name: "Maya", last_name: "Lindqvist", email: "maya.lindqvist@example.com", phone: "+15035550148", birthday: "1991-04-23", marketing_emails: true },
    rl_addresses: [
      { id: "a1", label: "Home", name: "Maya Lindqvist", line1: "2231 NE Alberta St", line2: "", city: "Portland", state: "OR", zip: "97211", phone: "+15035550148", default: true },
      { id: "a2", label: "Work", name: "Maya Lindqvist", line1: "410 SW Morrison St", line2: "Suite 600", city: "Portland", state: "OR", zip: "97204", phone: "", default: false }
    ],
    rl_orders: [
      { id: "RL-10431", date: "2026-11-26", status: "Processing", items: [{ sku: "RL-SLP-110", variant: "Regular", qty: 1, price: 229 }, { sku: "RL-CKG-720", variant: "One size", qty: 1, price: 34 }], shipping: "standard", total: 263,
        track: [["2026-11-26", "Order placed", true], ["", "Packed", false], ["", "Shipped", false], ["", "Delivered", false]] },
      { id: "RL-10412", date: "2026-11-19", status: "Shipped", carrier: "UPS", tracking: "1Z84A9W20391776514", eta: "2026-12-01", items: [{ sku: "RL-PCK-322", variant: "Teal", qty: 1, price: 79 }], shipping: "standard", total: 85.95,
        track: [["2026-11-19", "Order placed", true], ["2026-11-20", "Packed", true], ["2026-11-21", "Shipped from Reno, NV", true], ["2026-11-27", "Delayed — weather at Salt Lake City hub", true], ["", "Delivered", false]] },
      { id: "RL-10398", date: "2026-11-06", status: "Delivered", delivered: "2026-11-10", items: [{ sku: "RL-FTW-620", variant: "10 / Navy", qty: 1, price: 145 }, { sku: "RL-ACC-810", variant: "M", qty: 2, price: 28 }], shipping: "standard", total: 201,
        track: [["2026-11-06", "Order placed", true], ["2026-11-07", "Shipped", true], ["2026-11-10", "Delivered", true]] },
      { id: "RL-10355", date: "2026-09-14", status: "Delivered", delivered: "2026-09-19", items: [{ sku: "RL-FTW-610", variant: "9", qty: 1, price: 179 }], shipping: "express", total: 193.95,
        track: [["2026-09-14", "Order placed", true], ["2026-09-15", "Shipped", true], ["2026-09-19", "Delivered", true]] }
    ],
    rl_next_order: 10458
  };

  function load(k) { var v = localStorage.getItem(k); if (v === null) { save(k, SEED[k]); return JSON.parse(JSON.stringify(SEED[k])); } return JSON.parse(v); }
  function save(k, v) { localStorage.setItem(k, JSON.stringify(v)); }

  function track(event, data) {
    var body = Object.assign({ event: event }, data || {});
    try { fetch("/__events", { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }); } catch (e) {}
  }

  function $(s, r) { return (r || document).querySelector(s); }
  function $$(s, r) { return Array.prototype.slice.call((r || document).querySelectorAll(s)); }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  function money(n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function r2(n) { return Math.round(n * 100) / 100; }
  function product(sku) { return PRODUCTS.filter(function (p) { return p.sku === sku; })[0]; }
  function catName(id) { var c = CATEGORIES.filter(function (c) { return c.id === id; })[0]; return c ? c.name : id; }
  function variantOf(p, size, color) {
    if (p.sizes && p.colors) return size + " / " + color;
    if (p.sizes) return size; if (p.colors) return color; return "One size";
  }
  function isSoldOut(p, variant) { return p.outOfStock || (p.soldOut || []).indexOf(variant) >= 0; }
  function fmtDate(iso) {
    var m = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    var p = iso.split("-"); return m[+p[1] - 1] + " " + (+p[2]) + ", " + p[0];
  }
  function art(p, size) {
    var icons = {
      tents: '<path d="M12 3 2 21h20L12 3zm0 6 5 10H7l5-10z"/>', sleeping: '<rect x="6" y="2" width="12" height="20" rx="6"/>',
      packs: '<path d="M8 4h8a3 3 0 0 1 3 3v13H5V7a3 3 0 0 1 3-3zm1 8h6v4H9z"/>', jackets: '<path d="M8 3 3 7v5h3v9h12v-9h3V7l-5-4-4 3z"/>',
      footwear: '<path d="M4 6h6l1 6 8 3v4H4z"/>', cooking: '<path d="M5 7h12v9a4 4 0 0 1-4 4H9a4 4 0 0 1-4-4zm12 2h2a2 2 0 0 1 0 4h-2"/>',
      accessories: '<circle cx="12" cy="12" r="7"/>'
    };
    return '<svg width="' + size + '" height="' + size + '" viewBox="0 0 24 24" fill="#55705f" opacity=".55" aria-hidden="true">' + icons[p.cat] + "</svg>";
  }

  /* ---------- cart ---------- */
  function cart() { return load("rl_cart"); }
  function cartCount() { return cart().reduce(function (s, l) { return s + l.qty; }, 0); }
  function addToCart(sku, variant, qty) {
    var p = product(sku), c = cart();
    if (isSoldOut(p, variant)) { toast("Sorry, that option is sold out."); return false; }
    var line = c.filter(function (l) { return l.sku === sku && l.variant === variant; })[0];
    var have = line ? line.qty : 0;
    if (have + qty > MAX_QTY) { toast("Limit " + MAX_QTY + " per customer" + (have ? " — you already have " + have + " in your cart." : ".")); return false; }
    if (line) line.qty += qty; else c.push({ sku: sku, variant: variant, qty: qty });
    save("rl_cart", c);
    track("cart_add", { sku: sku, variant: variant, qty: qty });
    renderHeaderCount();
    toast("Added to cart: " + p.name + (variant !== "One size" ? " (" + variant + ")" : "") + (qty > 1 ? " × " + qty : ""));
    if (!$("#cart-drawer").classList.contains("hidden")) renderCart();
    return true;
  }
  function setQty(i, qty) {
    var c = cart(), l = c[i];
    if (!l || !(qty >= 1) || qty > MAX_QTY || qty === l.qty) { renderCart(); if (qty > MAX_QTY) toast("Limit " + MAX_QTY + " per customer."); return; }
    l.qty = qty; save("rl_cart", c);
    track("cart_qty_changed", { sku: l.sku, variant: l.variant, qty: qty });
    renderCart(); renderHeaderCount();
  }
  function removeLine(i) {
    var c = cart(), l = c[i]; c.splice(i, 1); save("rl_cart", c);
    track("cart_item_removed", { sku: l.sku, variant: l.variant });
    renderCart(); renderHeaderCount();
  }
  function totals(shipId) {
    var c = cart(), code = localStorage.getItem("rl_coupon") || "";
    var sub = r2(c.reduce(function (s, l) { return s + product(l.sku).price * l.qty; }, 0));
    var cp = COUPONS[code], disc = 0;
    if (cp && cp.type === "pct") disc = r2(sub * cp.value / 100);
    if (cp && cp.type === "amt") disc = sub >= cp.min ? cp.value : 0;
    var sm = SHIPPING.filter(function (s) { return s.id === (shipId || "standard"); })[0], ship = sm.price;
    if (sm.freeOver && sub >= sm.freeOver) ship = 0;
    if (cp && cp.type === "ship" && sm.id === "standard") ship = 0;
    if (!c.length) ship = 0;
    return { sub: sub, code: code, disc: disc, ship: ship, total: r2(sub - disc + ship) };
  }
  function applyCoupon(raw, errEl) {
    var code = String(raw || "").trim().toUpperCase(), cp = COUPONS[code];
    errEl.textContent = "";
    if (!code) { errEl.textContent = "Enter a discount code."; return false; }
    if (!cp) { errEl.textContent = "“" + raw.trim() + "” isn’t a valid discount code."; return false; }
    if (cp.expired) { errEl.textContent = "This code expired on " + fmtDate(cp.expired) + "."; return false; }
    var t = totals();
    if (cp.min && t.sub < cp.min) { errEl.textContent = "This code needs a subtotal of at least " + money(cp.min) + "."; return false; }
    if (localStorage.getItem("rl_coupon") === code) { errEl.textContent = "That code is already applied."; return false; }
    localStorage.setItem("rl_coupon", code);
    track("coupon_applied", { code: code });
    return true;
  }

  /* ---------- wishlist ---------- */
  function inWishlist(sku) { return load("rl_wishlist").indexOf(sku) >= 0; }
  function toggleWishlist(sku) {
    var w = load("rl_wishlist"), i = w.indexOf(sku), action = i >= 0 ? "remove" : "add";
    if (i >= 0) w.splice(i, 1); else w.push(sku);
    save("rl_wishlist", w);
    track("wishlist_changed", { sku: sku, action: action });
    toast(action === "add" ? "Saved to your wishlist" : "Removed from your wishlist");
    return action === "add";
  }

  /* ---------- UI chrome ---------- */
  var ICON = {
    search: '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>',
    user: '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" aria-hidden="true"><circle cx="12" cy="8" r="4"/><path d="M4 21c1-4 4-6 8-6s7 2 8 6"/></svg>',
    heart: '<svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" aria-hidden="true"><path d="M12 20s-7-4.5-9-9a4.5 4.5 0 0 1 9-2 4.5 4.5 0 0 1 9 2c-2 4.5-9 9-9 9z"/></svg>',
    heartFull: '<svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M12 20s-7-4.5-9-9a4.5 4.5 0 0 1 9-2 4.5 4.5 0 0 1 9 2c-2 4.5-9 9-9 9z"/></svg>',
    bag: '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" aria-hidden="true"><path d="M5 8h14l-1 13H6z"/><path d="M9 8V6a3 3 0 0 1 6 0v2"/></svg>',
    trash: '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" aria-hidden="true"><path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13"/></svg>',
    x: '<svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18"/></svg>',
    peak: '<svg width="26" height="26" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true"><path d="M2 20 9 7l4 6 3-4 6 11z"/></svg>'
  };

  function renderChrome() {
    var q = new URLSearchParams(location.search).get("q") || "";
    var head = document.createElement("div");
    head.innerHTML =
      '<div class="announce">Free standard shipping on orders over $100 · 30-day returns</div>' +
      '<header class="navbar"><div class="container">' +
      '<a class="navbar-brand" href="index.html">' + ICON.peak + "Ridgeline Outfitters</a>" +
      '<nav class="nav-links" aria-label="Main"><a href="index.html">Shop all</a><a href="index.html?cat=tents">Tents</a><a href="index.html?cat=packs">Packs</a>' +
      '<a href="index.html?cat=jackets">Apparel</a><a href="index.html?cat=footwear">Footwear</a><a class="sale" href="index.html?sale=1">Sale</a></nav>' +
      '<form class="search-form" role="search" action="index.html"><input type="search" name="q" placeholder="Search gear" value="' + esc(q) + '">' +
      '<button type="submit" aria-label="Search">' + ICON.search + "</button></form>" +
      '<div class="nav-icons"><a class="icon-btn" href="account.html#profile" aria-label="Account">' + ICON.user + "</a>" +
      '<a class="icon-btn" href="account.html#wishlist" aria-label="Saved items">' + ICON.heart + "</a>" +
      '<button class="icon-btn" type="button" id="cart-btn" aria-label="Cart">' + ICON.bag + '<span class="badge-count" aria-hidden="true" id="cart-count">0</span></button></div>' +
      "</div></header>";
    var first = document.body.firstChild;
    while (head.firstChild) document.body.insertBefore(head.firstChild, first);

    var foot = document.createElement("footer");
    foot.className = "site-footer";
    var cats = CATEGORIES.map(function (c) { return '<li><a href="index.html?cat=' + c.id + '">' + c.name + "</a></li>"; }).join("");
    foot.innerHTML = '<div class="container"><div class="row">' +
      '<div class="col"><h3>Shop</h3><ul>' + cats + "</ul></div>" +
      '<div class="col"><h3>Help</h3><ul><li><a href="#">Shipping &amp; delivery</a></li><li><a href="#">Returns &amp; exchanges</a></li><li><a href="account.html#orders">Order status</a></li><li><a href="#">Size guide</a></li><li><a href="#">Warranty &amp; repairs</a></li><li><a href="#">Contact us</a></li></ul></div>' +
      '<div class="col"><h3>Company</h3><ul><li><a href="#">About us</a></li><li><a href="#">Stores</a></li><li><a href="#">Careers</a></li><li><a href="#">Stewardship</a></li><li><a href="#">Press</a></li><li><a href="#">Affiliates</a></li></ul></div>' +
      '<div class="col"><h3>Trail news</h3><p>New arrivals, trip reports and members-only deals. No spam.</p>' +
      '<form class="footer-nl" id="footer-nl"><input class="form-control" type="email" placeholder="you@example.com"><button class="btn btn-primary" type="submit">Sign up</button></form>' +
      '<div class="small mt-1" id="footer-nl-msg"></div></div>' +
      '</div><div class="legal"><span>© 2026 Ridgeline Outfitters, Inc. · Bend, Oregon</span><span><a href="#">Privacy</a> · <a href="#">Terms</a> · <a href="#">Cookie settings</a> · <a href="#">Accessibility</a></span></div></div>';
    document.body.appendChild(foot);

    // cart drawer
    var d = document.createElement("div");
    d.innerHTML = '<div class="backdrop hidden" id="cart-backdrop"></div>' +
      '<aside class="offcanvas hidden" id="cart-drawer" role="dialog" aria-modal="true" aria-labelledby="cart-title">' +
      '<div class="offcanvas-header"><h2 id="cart-title">Your cart</h2><button class="icon-btn" type="button" aria-label="Close cart" id="cart-close">' + ICON.x + "</button></div>" +
      '<div class="offcanvas-body" id="cart-body"></div><div class="offcanvas-footer" id="cart-foot"></div></aside>';
    while (d.firstChild) document.body.appendChild(d.firstChild);

    $("#cart-btn").addEventListener("click", openCart);
    $("#cart-close").addEventListener("click", closeCart);
    $("#cart-backdrop").addEventListener("click", closeCart);
    $("#footer-nl").addEventListener("submit", function (e) {
      e.preventDefault();
      var inp = $("input", this), msg = $("#footer-nl-msg");
      if (subscribe(inp.value)) { msg.textContent = "Thanks! You're on the list."; inp.value = ""; } else msg.textContent = "Please enter a valid email address.";
    });
    renderHeaderCount();
  }
  function renderHeaderCount() { var n = cartCount(), b = $("#cart-count"); if (b) { b.textContent = n; b.classList.toggle("hidden", n === 0); } }

  function openCart() { renderCart(); $("#cart-drawer").classList.remove("hidden"); $("#cart-backdrop").classList.remove("hidden"); }
  function closeCart() { $("#cart-drawer").classList.add("hidden"); $("#cart-backdrop").classList.add("hidden"); }

  function renderCart() {
    var c = cart(), body = $("#cart-body"), foot = $("#cart-foot");
    if (!c.length) {
      body.innerHTML = '<div class="empty">Your cart is empty.<br><a href="index.html">Start shopping</a></div>';
      foot.innerHTML = ""; return;
    }
    body.innerHTML = '<ul class="cart-list">' + c.map(function (l, i) {
      var p = product(l.sku);
      return '<li class="cart-item"><div class="thumb" style="background:' + ART[p.cat] + '">' + art(p, 36) + "</div>" +
        '<div class="info"><div class="name">' + esc(p.name) + '</div><div class="small text-muted">' + (l.variant !== "One size" ? esc(l.variant) : "") + "</div>" +
        '<div class="d-flex align-center justify-between mt-2"><div class="qty-group">' +
        '<button type="button" aria-label="Decrease quantity" data-dec="' + i + '"' + (l.qty <= 1 ? " disabled" : "") + ">−</button>" +
        '<span class="qty-val" aria-label="Quantity ' + l.qty + '">' + l.qty + "</span>" +
        '<button type="button" aria-label="Increase quantity" data-inc="' + i + '"' + (l.qty >= MAX_QTY ? " disabled" : "") + ">+</button></div>" +
        '<span class="fw-bold">' + money(p.price * l.qty) + "</span></div></div>" +
        '<div><button class="icon-btn" type="button" aria-label="Remove" data-rm="' + i + '">' + ICON.trash + "</button></div></li>";
    }).join("") + "</ul>";
    var t = totals();
    foot.innerHTML =
      (t.code ? '<div class="mb-2"><span class="coupon-chip">' + t.code + ' <button class="icon-btn" style="padding:2px" type="button" aria-label="Remove discount" id="coupon-rm">' + ICON.x + "</button></span></div>"
        : '<form class="d-flex gap-2 mb-2" id="coupon-form"><input class="form-control" placeholder="Discount code"><button class="btn btn-outline" type="submit">Apply</button></form><div class="invalid-feedback" id="coupon-err"></div>') +
      '<div class="sum-line"><span>Subtotal</span><span>' + money(t.sub) + "</span></div>" +
      (t.disc ? '<div class="sum-line text-success"><span>Discount (' + t.code + ')</span><span>−' + money(t.disc) + "</span></div>" : "") +
      '<div class="small text-muted mb-2">Shipping calculated at checkout.</div>' +
      '<a class="btn btn-primary btn-block btn-lg" href="checkout.html">Checkout</a>' +
      '<button class="btn btn-link btn-block mt-1" type="button" id="cart-continue">Continue shopping</button>';
    $$("[data-dec]", body).forEach(function (b) { b.onclick = function () { var i = +b.dataset.dec; setQty(i, cart()[i].qty - 1); }; });
    $$("[data-inc]", body).forEach(function (b) { b.onclick = function () { var i = +b.dataset.inc; setQty(i, cart()[i].qty + 1); }; });
    $$("[data-rm]", body).forEach(function (b) {
      b.onclick = function () {
        var i = +b.dataset.rm, p = product(cart()[i].sku);
        confirmModal("Remove item?", "Remove " + esc(p.name) + " from your cart?", "Remove", function () { removeLine(i); });
      };
    });
    var cf = $("#coupon-form");
    if (cf) cf.onsubmit = function (e) { e.preventDefault(); if (applyCoupon($("input", cf).value, $("#coupon-err"))) { renderCart(); if (window.onCartChange) window.onCartChange(); } };
    var rm = $("#coupon-rm");
    if (rm) rm.onclick = function () { localStorage.removeItem("rl_coupon"); renderCart(); if (window.onCartChange) window.onCartChange(); };
    $("#cart-continue").onclick = closeCart;
    if (window.onCartChange) window.onCartChange();
  }

  /* ---------- modals ---------- */
  function modal(title, bodyHtml, footHtml, opts) {
    var m = document.createElement("div");
    m.className = "modal";
    var id = "m" + Math.random().toString(36).slice(2, 7);
    m.innerHTML = '<div class="modal-dialog' + ((opts && opts.cls) || "") + '" role="dialog" aria-modal="true" aria-labelledby="' + id + '">' +
      '<div class="modal-header"><h2 id="' + id + '">' + title + '</h2><button class="icon-btn" type="button" aria-label="Close" data-close>' + ICON.x + "</button></div>" +
      '<div class="modal-body">' + bodyHtml + "</div>" + (footHtml ? '<div class="modal-footer">' + footHtml + "</div>" : "") + "</div>";
    document.body.appendChild(m);
    var close = function () { m.remove(); };
    $$("[data-close]", m).forEach(function (b) { b.addEventListener("click", close); });
    m.addEventListener("click", function (e) { if (e.target === m) close(); });
    return { el: m, close: close };
  }
  function confirmModal(title, text, okLabel, onOk) {
    var m = modal(title, "<p>" + text + "</p>", '<button class="btn btn-outline" type="button" data-close>Cancel</button><button class="btn btn-danger" type="button" data-ok>' + okLabel + "</button>");
    $("[data-ok]", m.el).onclick = function () { m.close(); onOk(); };
  }
  var toastTimer;
  function toast(msg) {
    var t = $("#toast");
    if (!t) { t = document.createElement("div"); t.id = "toast"; t.className = "toast"; t.setAttribute("role", "status"); document.body.appendChild(t); }
    t.textContent = msg; t.classList.remove("hidden");
    clearTimeout(toastTimer); toastTimer = setTimeout(function () { t.classList.add("hidden"); }, 3500);
  }

  /* ---------- cookie banner + newsletter ---------- */
  function cookieBanner() {
    if (localStorage.getItem("rl_cookies")) return;
    var b = document.createElement("div");
    b.className = "cookie-banner"; b.setAttribute("role", "region"); b.setAttribute("aria-label", "Cookie consent");
    b.innerHTML = '<div style="flex:1"><strong>We use cookies</strong><br>We and our partners use cookies to run the store, remember your cart, measure traffic and personalise ads. See our <a href="#">cookie policy</a>.</div>' +
      '<div class="btns"><button class="btn btn-outline btn-sm" type="button" data-c="custom">Manage preferences</button><button class="btn btn-outline btn-sm" type="button" data-c="essential">Essential only</button><button class="btn btn-primary btn-sm" type="button" data-c="all">Accept all</button></div>';
    document.body.appendChild(b);
    $$("[data-c]", b).forEach(function (btn) {
      btn.onclick = function () {
        if (btn.dataset.c === "custom") {
          var m = modal("Cookie preferences", '<label class="form-check"><input type="checkbox" checked disabled> Strictly necessary</label><label class="form-check"><input type="checkbox" id="ck-an"> Analytics</label><label class="form-check"><input type="checkbox" id="ck-ad"> Advertising</label>',
            '<button class="btn btn-primary" type="button" data-save>Save preferences</button>');
          $("[data-save]", m.el).onclick = function () { localStorage.setItem("rl_cookies", "custom"); m.close(); b.remove(); };
          return;
        }
        localStorage.setItem("rl_cookies", btn.dataset.c); b.remove();
      };
    });
  }
  function subscribe(email) {
    email = String(email || "").trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/.test(email)) return false;
    localStorage.setItem("rl_nl", "subscribed");
    track("newsletter_signup", { email: email });
    return true;
  }
  function newsletterPopup() {
    // shown from the second page of a visit, until closed or subscribed
    var pv = (+sessionStorage.getItem("rl_pv") || 0) + 1;
    sessionStorage.setItem("rl_pv", pv);
    if (pv < 2 || localStorage.getItem("rl_nl")) return;
    var m = modal("Get 10% off your first order",
      '<p>Join Ridgeline Trail News for gear drops, trip ideas and a welcome code.</p><form id="nl-form"><input class="form-control" type="email" placeholder="Email address">' +
      '<div class="invalid-feedback" id="nl-err"></div><button class="btn btn-primary btn-block mt-2" type="submit">Subscribe</button></form>' +
      '<button class="btn btn-link btn-block small" type="button" data-close>No thanks</button>', "");
    m.el.querySelectorAll("[data-close]").forEach(function (b) { b.addEventListener("click", function () { localStorage.setItem("rl_nl", "dismissed"); }); });
    $("#nl-form", m.el).onsubmit = function (e) {
      e.preventDefault();
      if (subscribe($("input", this).value)) { $(".modal-body", m.el).innerHTML = '<p>You’re in! Use code <strong>WELCOME10</strong> at checkout.</p><button class="btn btn-primary btn-block" type="button" data-close>Continue shopping</button>'; $("[data-close]", m.el).onclick = m.close; }
      else $("#nl-err", m.el).textContent = "Please enter a valid email address.";
    };
  }

  /* ---------- product card + quick add ---------- */
  function priceHtml(p) { return '<span class="price">' + money(p.price) + (p.was ? "<s>" + money(p.was) + "</s>" : "") + "</span>"; }
  function cardHtml(p, compact) {
    var badge = p.outOfStock ? '<span class="badge bg-out">Sold out</span>' : p.was ? '<span class="badge bg-sale">Sale</span>' : p.added >= "2026-09-01" ? '<span class="badge bg-new">New</span>' : "";
    var w = inWishlist(p.sku);
    return '<article class="card" data-sku="' + p.sku + '"><div class="card-img" style="background:' + ART[p.cat] + '">' + badge + art(p, 90) +
      (compact ? "" : '<button class="icon-btn wish" type="button" aria-label="' + (w ? "Remove from wishlist" : "Add to wishlist") + '" aria-pressed="' + w + '" data-wish="' + p.sku + '">' + (w ? ICON.heartFull : ICON.heart) + "</button>") + "</div>" +
      '<div class="card-body"><div class="small text-muted">' + catName(p.cat) + '</div><h3 class="card-title"><a href="product.html?sku=' + p.sku + '">' + esc(p.name) + "</a></h3>" +
      '<div class="rating">★ ' + p.rating.toFixed(1) + " <span>(" + p.reviews + ")</span></div>" + priceHtml(p) + "</div>" +
      (compact ? "" : '<div class="card-foot"><button class="btn btn-primary btn-block" type="button" data-add="' + p.sku + '"' + (p.outOfStock ? " disabled" : "") + ">" + (p.outOfStock ? "Sold out" : "Add to cart") + "</button></div>") + "</article>";
  }
  function bindCards(root) {
    $$("[data-wish]", root).forEach(function (b) {
      b.onclick = function () { var on = toggleWishlist(b.dataset.wish); b.setAttribute("aria-pressed", on); b.setAttribute("aria-label", on ? "Remove from wishlist" : "Add to wishlist"); b.innerHTML = on ? ICON.heartFull : ICON.heart; };
    });
    $$("[data-add]", root).forEach(function (b) {
      b.onclick = function () { var p = product(b.dataset.add); if (p.sizes || p.colors) quickAdd(p); else addToCart(p.sku, "One size", 1); };
    });
  }
  function optionsHtml(p, prefix) {
    var h = "";
    if (p.colors) h += '<div class="form-group"><label class="form-label" for="' + prefix + '-color">Colour</label><select class="form-select" id="' + prefix + '-color">' +
      p.colors.map(function (c) { return "<option>" + c + "</option>"; }).join("") + "</select></div>";
    if (p.sizes) h += '<div class="form-group"><label class="form-label" for="' + prefix + '-size">Size</label><select class="form-select" id="' + prefix + '-size"><option value="">Select a size</option>' +
      p.sizes.map(function (s) { return "<option>" + s + "</option>"; }).join("") + "</select></div>";
    return h + '<div class="invalid-feedback" id="' + prefix + '-err"></div>';
  }
  function readVariant(p, prefix) {
    var size = p.sizes ? $("#" + prefix + "-size").value : null, color = p.colors ? $("#" + prefix + "-color").value : null;
    var err = $("#" + prefix + "-err"); err.textContent = "";
    if (p.sizes && !size) { err.textContent = "Please select a size."; return null; }
    var v = variantOf(p, size, color);
    if (isSoldOut(p, v)) { err.textContent = v + " is sold out. Try another option."; return null; }
    return v;
  }
  function quickAdd(p) {
    var m = modal(esc(p.name), '<div class="mb-3">' + priceHtml(p) + "</div>" + optionsHtml(p, "qa") + '<a class="small" href="product.html?sku=' + p.sku + '">View full details</a>',
      '<button class="btn btn-primary" type="button" data-ok>Add to cart</button>');
    $("[data-ok]", m.el).onclick = function () { var v = readVariant(p, "qa"); if (v && addToCart(p.sku, v, 1)) m.close(); };
  }

  function init() { renderChrome(); cookieBanner(); newsletterPopup(); }

  return {
    TODAY: TODAY, MAX_QTY: MAX_QTY, CATEGORIES: CATEGORIES, PRODUCTS: PRODUCTS, SHIPPING: SHIPPING, ART: ART, ICON: ICON, COUPONS: COUPONS,
    load: load, save: save, track: track, $: $, $$: $$, esc: esc, money: money, r2: r2, product: product, catName: catName, fmtDate: fmtDate, art: art,
    cart: cart, addToCart: addToCart, totals: totals, applyCoupon: applyCoupon, inWishlist: inWishlist, toggleWishlist: toggleWishlist,
    cardHtml: cardHtml, bindCards: bindCards, optionsHtml: optionsHtml, readVariant: readVariant, priceHtml: priceHtml, variantOf: variantOf,
    modal: modal, confirmModal: confirmModal, toast: toast, renderHeaderCount: renderHeaderCount, openCart: openCart, closeCart: closeCart, renderCart: renderCart, init: init
  };
})();
