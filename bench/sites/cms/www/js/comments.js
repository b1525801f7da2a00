(function () {
  "use strict";
  TW.renderChrome("comments");
  var view = new URLSearchParams(location.search).get("status") || "all";
  var rows = document.getElementById("commentRows");
  var GLYPH = { approve: "✓", unapprove: "⤺", reply: "↩", spam: "⚠", notspam: "↺", restore: "↺" };
  var LABEL = { approve: "Approve", unapprove: "Unapprove", reply: "Reply", spam: "Mark as spam", trash: "Move to trash",
    notspam: "Not spam", restore: "Restore", delete: "Delete permanently" };
  var EVENT = { approve: ["comment_approved", "approved"], unapprove: ["comment_unapproved", "pending"],
    spam: ["comment_spammed", "spam"], trash: ["comment_trashed", "trash"], notspam: ["comment_unspammed", "pending"],
    restore: ["comment_restored", "pending"], delete: ["comment_deleted", null] };

  function inView(c) { return view === "all" ? (c.status === "pending" || c.status === "approved") : c.status === view; }
  function list() {
    return TW.load().comments.filter(inView).sort(function (a, b) { return a.date < b.date ? 1 : a.date > b.date ? -1 : 0; });
  }

  function renderTabs() {
    var s = TW.load(), host = document.getElementById("commentTabs");
    host.innerHTML = "";
    [["all", "All"], ["pending", "Pending"], ["approved", "Approved"], ["spam", "Spam"], ["trash", "Trash"]].forEach(function (t) {
      var n = s.comments.filter(function (c) { return t[0] === "all" ? c.status === "pending" || c.status === "approved" : c.status === t[0]; }).length;
      var a = document.createElement("a");
      a.href = "#"; a.className = "statustab" + (view === t[0] ? " is-active" : "");
      a.innerHTML = t[1] + ' <span class="count">(' + n + ")</span>";
      a.addEventListener("click", function (e) { e.preventDefault(); view = t[0]; render(); });
      host.appendChild(a);
    });
  }

  function actionsFor(c) {
    if (c.status === "pending") return ["approve", "reply", "spam", "trash"];
    if (c.status === "approved") return ["unapprove", "reply", "spam", "trash"];
    if (c.status === "spam") return ["notspam", "delete"];
    return ["restore", "delete"];
  }

  function apply(action, ids) {
    var s = TW.load();
    ids.forEach(function (id) {
      var c = s.comments.find(function (x) { return x.id === id; });
      if (!c) return;
      var ev = EVENT[action];
      if (ev[1] === c.status) return;
      TW.track(ev[0], { comment_id: c.id, post_id: c.post, author: c.author });
      if (ev[1]) c.status = ev[1];
      else s.comments = s.comments.filter(function (x) { return x.id !== id; });
    });
    TW.save(s);
    TW.api("comments/" + action, { ids: ids });
  }

  function render() {
    renderTabs();
    var s = TW.load(), items = list();
    rows.innerHTML = "";
    document.getElementById("cEmpty").hidden = items.length > 0;
    document.getElementById("cAll").checked = false;
    items.forEach(function (c) {
      var post = s.posts.find(function (p) { return p.id === c.post; });
      var tr = document.createElement("tr");
      tr.className = "crow crow--" + c.status;
      tr.innerHTML =
        '<td class="col-check"><input type="checkbox" class="ccheck" value="' + c.id + '" aria-label="Select comment by ' + TW.esc(c.author) + '"></td>' +
        '<td><div class="author"><span class="author__avatar" aria-hidden="true">' + TW.esc(c.author.charAt(0).toUpperCase()) + '</span><div><strong>' + TW.esc(c.author) +
          '</strong><div class="muted small">' + TW.esc(c.email.toLowerCase()) + "</div></div></div></td>" +
        "<td>" + (c.status === "pending" ? '<span class="badge badge--pending">Pending</span> ' : "") +
          (c.parent ? '<span class="muted small">In reply to ' + TW.esc((s.comments.find(function (x) { return x.id === c.parent; }) || {}).author || "a comment") + ".</span> " : "") +
          '<span class="ctext">' + TW.esc(c.text) + "</span></td>" +
        "<td>" + (post ? '<a href="editor.html?id=' + post.id + '">' + TW.esc(post.title) + "</a>" : '<span class="muted">(deleted post)</span>') + "</td>" +
        '<td class="small">' + TW.fmtDate(c.date, true) + "</td>" +
        '<td class="rowactions"></td>';
      var cell = tr.querySelector(".rowactions");
      actionsFor(c).forEach(function (a) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "iconbtn" + (a === "trash" || a === "delete" || a === "spam" ? " iconbtn--danger" : "");
        b.setAttribute("aria-label", LABEL[a]);
        b.title = LABEL[a];
        b.innerHTML = a === "trash" || a === "delete" ? TW.ICONS.trash : '<span aria-hidden="true">' + GLYPH[a] + "</span>";
        b.addEventListener("click", function () {
          if (a === "reply") { openReply(tr, c); return; }
          if (a === "delete") {
            TW.confirmBox({ title: "Delete comment permanently?", text: "This comment by " + c.author + " will be removed for good.", ok: "Delete" })
              .then(function (yes) { if (yes) { apply(a, [c.id]); render(); } });
            return;
          }
          apply(a, [c.id]);
          TW.toast(LABEL[a] === "Approve" ? "Comment approved." : "Comment updated.");
          render();
        });
        cell.appendChild(b);
      });
      rows.appendChild(tr);
    });
  }

  function openReply(tr, c) {
    var old = document.querySelector(".replyrow");
    if (old) old.remove();
    var r = document.createElement("tr");
    r.className = "replyrow";
    r.innerHTML = '<td></td><td colspan="5"><div class="replybox"><div class="muted small">Replying to ' + TW.esc(c.author) + " as Maya Okafor</div>" +
      '<textarea rows="3" placeholder="Write a reply"></textarea><div class="btnrow">' +
      '<button type="button" class="btn btn--ghost">Cancel</button>' +
      '<button type="button" class="btn btn--primary">' + (c.status === "pending" ? "Approve and reply" : "Reply") + "</button></div></div></td>";
    tr.after(r);
    var ta = r.querySelector("textarea");
    ta.focus();
    var btns = r.querySelectorAll("button");
    btns[0].addEventListener("click", function () { r.remove(); });
    btns[1].addEventListener("click", function () {
      var text = ta.value.trim();
      if (!text) { ta.focus(); return; }
      if (c.status === "pending") apply("approve", [c.id]);
      var s = TW.load();
      var nc = { id: s.nextCommentId, post: c.post, parent: c.id, author: "Maya Okafor", email: "maya.okafor@tidewaterweekly.co.uk",
        date: TW.NOW, status: "approved", text: text };
      s.nextCommentId += 1;
      s.comments.push(nc);
      TW.save(s);
      TW.track("comment_replied", { comment_id: nc.id, parent_id: c.id, post_id: c.post, text: text });
      TW.toast("Reply posted.");
      render();
    });
  }

  document.getElementById("cAll").addEventListener("change", function (e) {
    rows.querySelectorAll(".ccheck").forEach(function (x) { x.checked = e.target.checked; });
  });
  document.getElementById("cBulkApply").addEventListener("click", function () {
    var action = document.getElementById("cBulk").value;
    var ids = Array.prototype.filter.call(rows.querySelectorAll(".ccheck"), function (x) { return x.checked; })
      .map(function (x) { return parseInt(x.value, 10); });
    if (!action) { TW.toast("Choose a bulk action first.", "warn"); return; }
    if (!ids.length) { TW.toast("Select at least one comment.", "warn"); return; }
    apply(action, ids);
    TW.toast(ids.length + " comment" + (ids.length > 1 ? "s" : "") + " updated.");
    render();
  });

  render();
})();
