/* Studio web components: <cms-toolbar>, <tag-input>, <media-picker-button> */
(function () {
  "use strict";

  var BASE_CSS =
    ":host{display:block;font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1f2933}" +
    "button{font:inherit;cursor:pointer}";

  /* ---------- Formatting toolbar ---------- */
  var TOOLS = [
    { cmd: "bold", label: "Bold", glyph: "<b>B</b>" },
    { cmd: "italic", label: "Italic", glyph: "<i>I</i>" },
    { cmd: "heading", label: "Heading", glyph: "H2" },
    { cmd: "list", label: "Bulleted list", glyph: "&#8226;&#8801;" },
    { cmd: "link", label: "Insert link", glyph: '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M10 14a4 4 0 006 0l3-3a4 4 0 00-6-6l-1 1M14 10a4 4 0 00-6 0l-3 3a4 4 0 006 6l1-1" fill="none" stroke="currentColor" stroke-width="2"/></svg>' },
    { cmd: "undo", label: "Undo", glyph: "&#8630;" }
  ];

  class CmsToolbar extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML = "<style>" + BASE_CSS +
        ".bar{display:flex;gap:2px;padding:6px;border:1px solid #d5dbe1;border-bottom:0;border-radius:8px 8px 0 0;background:#f7f9fb;position:sticky;top:0}" +
        ".sep{width:1px;background:#d5dbe1;margin:4px 6px}" +
        "button{border:0;background:transparent;min-width:32px;height:30px;border-radius:6px;color:#334e68}" +
        "button:hover{background:#e4e9ee}button[aria-pressed=true]{background:#d9e8ff;color:#0b4bb3}</style>" +
        '<div class="bar" role="toolbar" aria-label="Formatting"></div>';
      var bar = root.querySelector(".bar");
      var self = this;
      TOOLS.forEach(function (t, i) {
        if (i === 4 || i === 5) { var s = document.createElement("span"); s.className = "sep"; bar.appendChild(s); }
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("aria-label", t.label);
        b.title = t.label;
        b.innerHTML = t.glyph;
        b.dataset.cmd = t.cmd;
        // keep the selection in the editor when the toolbar is clicked
        b.addEventListener("mousedown", function (e) { e.preventDefault(); });
        b.addEventListener("click", function () {
          self.dispatchEvent(new CustomEvent("format", { detail: { command: t.cmd }, bubbles: true }));
        });
        bar.appendChild(b);
      });
    }
  }
  customElements.define("cms-toolbar", CmsToolbar);

  /* ---------- Tag input ---------- */
  class TagInput extends HTMLElement {
    constructor() { super(); this._tags = []; this._max = 5; }
    get value() { return this._tags.slice(); }
    set value(list) { this._tags = (list || []).slice(); if (this.shadowRoot) this._render(); }
    connectedCallback() {
      if (this.shadowRoot) return;
      this._max = parseInt(this.getAttribute("max") || "5", 10);
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML = "<style>" + BASE_CSS +
        ".box{display:flex;flex-wrap:wrap;gap:6px;padding:6px;border:1px solid #c3ccd5;border-radius:6px;background:#fff;min-height:36px}" +
        ".box:focus-within{border-color:#2f6fde;box-shadow:0 0 0 3px #d9e8ff}" +
        ".chip{display:inline-flex;align-items:center;gap:4px;background:#eef2f6;border-radius:14px;padding:2px 4px 2px 10px}" +
        ".chip button{border:0;background:none;width:20px;height:20px;border-radius:50%;color:#52606d}" +
        ".chip button:hover{background:#d5dbe1}" +
        "input{flex:1;min-width:120px;border:0;outline:0;font:inherit;padding:4px}" +
        ".hint{font-size:12px;color:#7b8794;margin-top:4px}.err{color:#b42318}</style>" +
        '<div class="box"><span class="chips"></span><input type="text" placeholder="Add a tag" autocomplete="off"></div>' +
        '<div class="hint">Separate with commas or the Enter key. Up to ' + this._max + " tags.</div>";
      this._input = root.querySelector("input");
      this._hint = root.querySelector(".hint");
      var self = this;
      this._input.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === ",") {
          e.preventDefault();
          self._commit(self._input.value);
        } else if (e.key === "Backspace" && !self._input.value && self._tags.length) {
          self._remove(self._tags[self._tags.length - 1]);
        }
      });
      this._input.addEventListener("input", function () {
        var v = self._input.value;
        if (v.indexOf(",") >= 0) {
          var parts = v.split(",");
          var rest = parts.pop();
          parts.forEach(function (p) { self._commit(p); });
          self._input.value = rest;
        }
      });
      this._input.addEventListener("blur", function () { if (self._input.value.trim()) self._commit(self._input.value); });
      this._render();
    }
    _commit(raw) {
      var t = String(raw || "").trim().toLowerCase().replace(/\s+/g, " ");
      this._input.value = "";
      if (!t) return;
      if (this._tags.indexOf(t) >= 0) return;
      if (this._tags.length >= this._max) {
        this._hint.textContent = "A post can have at most " + this._max + " tags. Remove one first.";
        this._hint.classList.add("err");
        return;
      }
      this._tags.push(t);
      this._render();
      this._changed();
    }
    _remove(t) {
      this._tags = this._tags.filter(function (x) { return x !== t; });
      this._render();
      this._changed();
      this._input.focus();
    }
    _changed() { this.dispatchEvent(new CustomEvent("change", { bubbles: true })); }
    _render() {
      var host = this.shadowRoot.querySelector(".chips");
      var self = this;
      host.innerHTML = "";
      this._tags.forEach(function (t) {
        var c = document.createElement("span");
        c.className = "chip";
        c.textContent = t;
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("aria-label", "Remove tag " + t);
        b.textContent = "×";
        b.addEventListener("click", function () { self._remove(t); });
        c.appendChild(b);
        host.appendChild(c);
      });
      this._hint.classList.remove("err");
      this._hint.textContent = "Separate with commas or the Enter key. Up to " + this._max + " tags.";
    }
  }
  customElements.define("tag-input", TagInput);

  /* ---------- Featured image / media picker button ---------- */
  class MediaPickerButton extends HTMLElement {
    constructor() { super(); this._file = ""; }
    get value() { return this._file; }
    set value(f) { this._file = f || ""; if (this.shadowRoot) this._render(); }
    connectedCallback() {
      if (this.shadowRoot) return;
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML = "<style>" + BASE_CSS +
        ".thumb{position:relative;border:1px dashed #c3ccd5;border-radius:6px;overflow:hidden;background:#f7f9fb}" +
        ".thumb img{display:block;width:100%;height:auto}" +
        ".thumb .none{padding:22px;text-align:center;color:#7b8794}" +
        ".rm{position:absolute;top:6px;right:6px;border:0;background:rgba(0,0,0,.6);color:#fff;width:26px;height:26px;border-radius:50%}" +
        ".open{margin-top:8px;width:100%;padding:8px;border:1px solid #c3ccd5;background:#fff;border-radius:6px;color:#0b4bb3}" +
        ".open:hover{background:#eef4ff}.cap{font-size:12px;color:#52606d;margin-top:4px}</style>" +
        '<div class="thumb"></div><div class="cap"></div><button type="button" class="open"></button>';
      var self = this;
      root.querySelector(".open").addEventListener("click", function () {
        self.dispatchEvent(new CustomEvent("pick", { bubbles: true }));
      });
      this._render();
    }
    _render() {
      var root = this.shadowRoot, self = this;
      var thumb = root.querySelector(".thumb");
      var media = (window.TW && TW.MEDIA || []).find(function (m) { return m.file === self._file; });
      if (this._file) {
        thumb.innerHTML = '<img src="media/' + this._file + '" alt="' + (media ? media.alt.replace(/"/g, "&quot;") : "") + '">' +
          '<button type="button" class="rm" aria-label="Remove featured image">×</button>';
        thumb.querySelector(".rm").addEventListener("click", function () {
          self.dispatchEvent(new CustomEvent("remove", { bubbles: true }));
        });
        root.querySelector(".cap").textContent = this._file;
        root.querySelector(".open").textContent = "Replace image";
      } else {
        thumb.innerHTML = '<div class="none">No featured image</div>';
        root.querySelector(".cap").textContent = "";
        root.querySelector(".open").textContent = "Set featured image";
      }
    }
  }
  customElements.define("media-picker-button", MediaPickerButton);
})();
