(function () {
  "use strict";
  var params = new URLSearchParams(location.search);
  var id = parseInt(params.get("id") || "0", 10);
  var store = TW.load();
  var existing = store.posts.find(function (p) { return p.id === id; });
  if (id && !existing) {
    TW.renderChrome("posts");
    document.querySelector(".page").innerHTML = '<div class="empty"><h1>Post not found</h1><p>It may have been deleted. <a href="index.html">Back to posts</a></p></div>';
    return;
  }
  TW.renderChrome(existing ? "posts" : "new");

  var post = existing ? JSON.parse(JSON.stringify(existing)) :
    { id: store.nextPostId, title: "", status: "draft", date: TW.NOW, category: "Uncategorized", tags: [], image: "", excerpt: "", body: "<p></p>" };
  var isNew = !existing;

  var $ = function (s) { return document.getElementById(s); };
  var titleEl = $("postTitle"), bodyEl = $("postBody"), catEl = $("postCategory"), tagsEl = $("postTags"),
    excerptEl = $("postExcerpt"), featuredEl = $("featured");

  TW.CATEGORIES.forEach(function (c) { var o = document.createElement("option"); o.value = c; o.textContent = c; catEl.appendChild(o); });
  titleEl.value = post.title;
  bodyEl.innerHTML = post.body;
  catEl.value = post.category;
  tagsEl.value = post.tags;
  excerptEl.value = post.excerpt;
  featuredEl.value = post.image;
  $("mediaClose").innerHTML = TW.ICONS.close;
  $("previewClose").innerHTML = TW.ICONS.close;
  document.title = (post.title || "New post") + " · Tidewater Weekly Studio";

  function wordCount() {
    var n = bodyEl.innerText.trim().split(/\s+/).filter(Boolean).length;
    $("wordCount").textContent = n + " words";
  }
  bodyEl.addEventListener("input", wordCount);
  wordCount();

  function collect() {
    post.title = titleEl.value.trim();
    post.body = bodyEl.innerHTML;
    post.category = catEl.value;
    post.tags = tagsEl.value;
    post.excerpt = excerptEl.value.trim();
    post.image = featuredEl.value;
    return post;
  }

  function record() {
    var r = TW.postRecord(post);
    if (post.status === "scheduled") r.scheduled_for = post.date;
    return r;
  }

  function persist() {
    var s = TW.load();
    var i = s.posts.findIndex(function (p) { return p.id === post.id; });
    if (i >= 0) s.posts[i] = JSON.parse(JSON.stringify(post));
    else { s.posts.push(JSON.parse(JSON.stringify(post))); s.nextPostId = post.id + 1; }
    TW.save(s);
    if (isNew) { isNew = false; history.replaceState(null, "", "editor.html?id=" + post.id); }
    renderStatus();
  }

  function validate() {
    if (!titleEl.value.trim()) { TW.toast("Add a title before saving.", "warn"); titleEl.focus(); return false; }
    return true;
  }

  function busy(btn, label) {
    var old = btn.textContent;
    btn.disabled = true; btn.textContent = label;
    return function () { btn.disabled = false; btn.textContent = old; };
  }

  function save(kind, btn) {
    if (!validate()) return;
    collect();
    var event = "post_saved", msg = "Draft saved.";
    if (kind === "draft") { post.status = "draft"; post.date = TW.NOW; msg = existing && existing.status !== "draft" ? "Switched to draft." : "Draft saved."; }
    else if (kind === "update") { msg = post.status === "scheduled" ? "Scheduled post updated." : "Post updated."; }
    else if (kind === "publish") { post.status = "published"; post.date = TW.NOW; event = "post_published"; msg = "Post published."; }
    else if (kind === "schedule") { event = "post_scheduled"; msg = "Post scheduled for " + TW.fmtDate(post.date, true) + "."; }
    var rec = record();
    if (kind === "publish") rec.published_at = TW.NOW;
    TW.track(event, rec);
    existing = JSON.parse(JSON.stringify(post));
    persist();
    var restore = btn ? busy(btn, "Saving…") : function () {};
    TW.api("posts/" + post.id, rec).then(function () { restore(); TW.toast(msg); });
  }

  function renderStatus() {
    var line = $("statusLine"), box = $("publishButtons");
    $("crumbTitle").textContent = post.title || "New post";
    var st = existing ? existing.status : "new";
    if (st === "new") line.innerHTML = "Status: <strong>New draft</strong> (not saved)";
    else if (st === "draft") line.innerHTML = "Status: <strong>Draft</strong> · last saved " + TW.fmtDate(existing.date, true);
    else if (st === "scheduled") line.innerHTML = "Status: <strong>Scheduled</strong> for " + TW.fmtDate(existing.date, true);
    else line.innerHTML = "Status: <strong>Published</strong> " + TW.fmtDate(existing.date, true);
    box.innerHTML = "";
    function add(label, cls, fn) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "btn " + cls; b.textContent = label;
      b.addEventListener("click", function () { fn(b); });
      box.appendChild(b);
    }
    if (st === "new" || st === "draft") add("Save draft", "btn--ghost", function (b) { save("draft", b); });
    else add("Switch to draft", "btn--ghost", function (b) { save("draft", b); });
    add("Preview", "btn--ghost", openPreview);
    if (st === "published") add("Update", "btn--primary", function (b) { save("update", b); });
    else {
      if (st === "scheduled") add("Update", "btn--secondary", function (b) { save("update", b); });
      add("Publish", "btn--primary", openPublish);
    }
    $("scheduleToggle").hidden = st === "published";
    if (st === "published") $("schedulePanel").hidden = true;
    if (st === "scheduled") { $("schedDate").value = existing.date.slice(0, 10); $("schedTime").value = existing.date.slice(11, 16); }
    $("dangerPanel").hidden = st === "new";
  }
  renderStatus();

  /* ---- schedule ---- */
  $("scheduleToggle").addEventListener("click", function () {
    var p = $("schedulePanel"); p.hidden = !p.hidden;
    this.setAttribute("aria-expanded", String(!p.hidden));
  });
  $("scheduleBtn").addEventListener("click", function () {
    var d = $("schedDate").value, t = $("schedTime").value, err = $("schedError");
    err.textContent = "";
    if (!d || !t) { err.textContent = "Choose both a date and a time."; return; }
    var when = d + "T" + t.slice(0, 5);
    if (when <= TW.NOW) { err.textContent = "The publish time must be in the future. To publish right away, use Publish."; return; }
    if (when > "2027-11-28T10:00") { err.textContent = "Posts can be scheduled at most one year ahead."; return; }
    if (!validate()) return;
    post.status = "scheduled"; post.date = when;
    save("schedule", this);
  });

  /* ---- publish ---- */
  function openPublish() {
    if (!validate()) return;
    collect();
    $("pubSummary").innerHTML = "<dt>Title</dt><dd>" + TW.esc(post.title) + "</dd><dt>Category</dt><dd>" + TW.esc(post.category) +
      "</dd><dt>Tags</dt><dd>" + (post.tags.length ? TW.esc(post.tags.join(", ")) : "None") + "</dd><dt>Featured image</dt><dd>" +
      (post.image ? TW.esc(post.image) : "None") + "</dd>";
    $("publishDialog").hidden = false;
    $("pubOk").focus();
  }
  $("pubCancel").addEventListener("click", function () { $("publishDialog").hidden = true; });
  $("pubOk").addEventListener("click", function () { $("publishDialog").hidden = true; save("publish"); });

  /* ---- preview ---- */
  function openPreview() {
    collect();
    $("previewBody").innerHTML = '<div class="preview__cat">' + TW.esc(post.category) + "</div><h1>" + TW.esc(post.title || "(no title)") + "</h1>" +
      (post.image ? '<img src="media/' + post.image + '" alt="">' : "") +
      (post.excerpt ? '<p class="preview__lede">' + TW.esc(post.excerpt) + "</p>" : "") + post.body;
    $("previewDialog").hidden = false;
    $("previewClose").focus();
  }
  $("previewClose").addEventListener("click", function () { $("previewDialog").hidden = true; });
  if (params.get("preview") && existing) openPreview();

  /* ---- delete ---- */
  $("deleteBtn").addEventListener("click", function () {
    TW.confirmBox({ title: "Delete “" + existing.title + "”?", text: "Deleted posts can't be recovered. Comments on this post are deleted too.", ok: "Delete" })
      .then(function (yes) {
        if (!yes) return;
        TW.track("post_deleted", { post_id: existing.id, title: existing.title });
        var s = TW.load();
        s.posts = s.posts.filter(function (p) { return p.id !== existing.id; });
        s.comments = s.comments.filter(function (c) { return c.post !== existing.id; });
        TW.save(s);
        sessionStorage.setItem("tw-flash", "Post deleted.");
        location.href = "index.html";
      });
  });

  /* ---- featured image ---- */
  featuredEl.addEventListener("pick", function () {
    $("mediaFrame").src = "media.html?post=" + post.id + (post.image ? "&current=" + encodeURIComponent(post.image) : "");
    $("mediaDialog").hidden = false;
  });
  $("mediaClose").addEventListener("click", function () { $("mediaDialog").hidden = true; });
  window.addEventListener("message", function (e) {
    if (e.origin !== location.origin || !e.data || e.data.type !== "media:use") return;
    var m = TW.MEDIA.find(function (x) { return x.file === e.data.file; });
    if (!m) return;
    post.image = m.file;
    featuredEl.value = m.file;
    TW.track("featured_image_set", { post_id: post.id, image: m.file, alt: m.alt });
    if (!isNew) { var s = TW.load(); var p = s.posts.find(function (x) { return x.id === post.id; }); if (p) { p.image = m.file; TW.save(s); } }
    $("mediaDialog").hidden = true;
    TW.toast("Featured image set.");
  });
  featuredEl.addEventListener("remove", function () {
    var old = post.image;
    post.image = ""; featuredEl.value = "";
    TW.track("featured_image_removed", { post_id: post.id, image: old });
    if (!isNew) { var s = TW.load(); var p = s.posts.find(function (x) { return x.id === post.id; }); if (p) { p.image = ""; TW.save(s); } }
  });

  /* ---- rich text ---- */
  var savedRange = null;
  document.addEventListener("selectionchange", function () {
    var sel = document.getSelection();
    if (sel.rangeCount && bodyEl.contains(sel.getRangeAt(0).commonAncestorContainer)) savedRange = sel.getRangeAt(0).cloneRange();
  });
  function restoreSelection() {
    bodyEl.focus();
    if (savedRange) { var sel = document.getSelection(); sel.removeAllRanges(); sel.addRange(savedRange); }
  }
  $("toolbar").addEventListener("format", function (e) {
    var cmd = e.detail.command;
    if (cmd === "link") { openLinkDialog(); return; }
    restoreSelection();
    if (cmd === "bold" || cmd === "italic" || cmd === "undo") document.execCommand(cmd);
    else if (cmd === "heading") {
      var block = document.queryCommandValue("formatBlock");
      document.execCommand("formatBlock", false, block === "h2" ? "p" : "h2");
    } else if (cmd === "list") document.execCommand("insertUnorderedList");
    wordCount();
  });

  function openLinkDialog() {
    $("linkError").textContent = "";
    $("linkUrl").value = "";
    $("linkText").value = savedRange && !savedRange.collapsed ? savedRange.toString() : "";
    $("linkDialog").hidden = false;
    $("linkUrl").focus();
  }
  $("linkCancel").addEventListener("click", function () { $("linkDialog").hidden = true; });
  $("linkOk").addEventListener("click", function () {
    var url = $("linkUrl").value.trim();
    if (!url) { $("linkError").textContent = "Enter a web address."; return; }
    if (!/^(https?:\/\/|mailto:)/i.test(url)) url = "https://" + url;
    var text = $("linkText").value.trim() || url;
    var a = document.createElement("a");
    a.href = url; a.textContent = text;
    if (savedRange && !savedRange.collapsed) {
      savedRange.deleteContents();
      savedRange.insertNode(a);
    } else if (savedRange) {
      savedRange.insertNode(a);
    } else {
      var last = bodyEl.lastElementChild;
      if (!last || !/^(P|LI|H2)$/.test(last.tagName)) { last = document.createElement("p"); bodyEl.appendChild(last); }
      if (last.textContent.trim()) last.appendChild(document.createTextNode(" "));
      last.appendChild(a);
    }
    savedRange = null;
    $("linkDialog").hidden = true;
    wordCount();
  });

  titleEl.addEventListener("input", function () { $("crumbTitle").textContent = titleEl.value || "New post"; });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") ["linkDialog", "mediaDialog", "publishDialog", "previewDialog"].forEach(function (d) { $(d).hidden = true; });
  });
})();
