(function () {
  "use strict";
  TW.renderChrome("posts");
  var params = new URLSearchParams(location.search);
  var state = { status: params.get("status") || "all", category: params.get("category") || "", q: (params.get("q") || "").trim() };
  var rows = document.getElementById("postRows");
  var catSel = document.getElementById("catFilter");
  var STATUS_LABEL = { published: "Published", draft: "Draft", scheduled: "Scheduled" };

  TW.CATEGORIES.forEach(function (c) {
    var o = document.createElement("option"); o.value = c; o.textContent = c; catSel.appendChild(o);
  });
  catSel.value = state.category;
  catSel.addEventListener("change", function () { state.category = catSel.value; render(); });

  function matchesQuery(p) {
    if (!state.q) return true;
    var q = state.q.toLowerCase();
    return (p.title + " " + p.excerpt + " " + p.tags.join(" ")).toLowerCase().indexOf(q) >= 0;
  }

  function visiblePosts() {
    var s = TW.load();
    return s.posts.filter(function (p) {
      return (state.status === "all" || p.status === state.status) &&
        (!state.category || p.category === state.category) && matchesQuery(p);
    }).sort(function (a, b) { return a.date < b.date ? 1 : a.date > b.date ? -1 : 0; });
  }

  function renderTabs() {
    var s = TW.load();
    var tabs = [["all", "All"], ["published", "Published"], ["scheduled", "Scheduled"], ["draft", "Drafts"]];
    var host = document.getElementById("statusTabs");
    host.innerHTML = "";
    tabs.forEach(function (t) {
      var n = s.posts.filter(function (p) { return t[0] === "all" || p.status === t[0]; }).length;
      var a = document.createElement("a");
      a.href = "#";
      a.className = "statustab" + (state.status === t[0] ? " is-active" : "");
      a.innerHTML = t[1] + ' <span class="count">(' + n + ")</span>";
      a.addEventListener("click", function (e) { e.preventDefault(); state.status = t[0]; render(); });
      host.appendChild(a);
    });
  }

  function render() {
    renderTabs();
    var note = document.getElementById("searchNote");
    if (state.q) {
      note.hidden = false;
      note.innerHTML = 'Search results for “' + TW.esc(state.q) + '” <a href="index.html">Clear search</a>';
    }
    var list = visiblePosts();
    rows.innerHTML = "";
    document.getElementById("emptyState").hidden = list.length > 0;
    list.forEach(function (p) {
      var tr = document.createElement("tr");
      var dateLabel = p.status === "published" ? "Published" : p.status === "scheduled" ? "Scheduled for" : "Last modified";
      tr.innerHTML =
        '<td class="col-check"><input type="checkbox" class="rowcheck" value="' + p.id + '" aria-label="Select ' + TW.esc(p.title) + '"></td>' +
        '<td><a class="rowtitle" href="editor.html?id=' + p.id + '">' + TW.esc(p.title) + "</a>" +
          (p.excerpt ? '<div class="muted small">' + TW.esc(p.excerpt) + "</div>" : "") + "</td>" +
        "<td>" + TW.esc(p.category) + "</td>" +
        '<td><div class="taglist">' + p.tags.map(function (t) { return '<span class="tag">' + TW.esc(t) + "</span>"; }).join("") + "</div></td>" +
        '<td><span class="badge badge--' + p.status + '">' + STATUS_LABEL[p.status] + "</span></td>" +
        '<td class="small"><div class="muted">' + dateLabel + "</div>" + TW.fmtDate(p.date, true) + "</td>" +
        '<td class="rowactions">' +
          '<a class="iconbtn" href="editor.html?id=' + p.id + '&preview=1" aria-label="Preview">' + TW.ICONS.eye + "</a>" +
          '<button type="button" class="iconbtn iconbtn--danger" aria-label="Delete post">' + TW.ICONS.trash + "</button>" +
        "</td>";
      tr.querySelector(".iconbtn--danger").addEventListener("click", function () { deletePosts([p.id]); });
      rows.appendChild(tr);
    });
    updateBulkCount();
  }

  function checkedIds() {
    return Array.prototype.filter.call(rows.querySelectorAll(".rowcheck"), function (c) { return c.checked; })
      .map(function (c) { return parseInt(c.value, 10); });
  }
  function updateBulkCount() {
    var n = checkedIds().length;
    document.getElementById("bulkCount").textContent = n ? n + " selected" : "";
  }
  rows.addEventListener("change", updateBulkCount);
  document.getElementById("checkAll").addEventListener("change", function (e) {
    rows.querySelectorAll(".rowcheck").forEach(function (c) { c.checked = e.target.checked; });
    updateBulkCount();
  });

  function deletePosts(ids) {
    var s = TW.load();
    var posts = s.posts.filter(function (p) { return ids.indexOf(p.id) >= 0; });
    var title = posts.length === 1 ? "Delete “" + posts[0].title + "”?" : "Delete " + posts.length + " posts?";
    TW.confirmBox({ title: title, text: "Deleted posts can't be recovered. Comments on them are deleted too.", ok: "Delete" })
      .then(function (yes) {
        if (!yes) return;
        var order = visiblePosts().map(function (p) { return p.id; });
        posts.sort(function (a, b) { return order.indexOf(a.id) - order.indexOf(b.id); });
        var st = TW.load();
        posts.forEach(function (p) {
          TW.track("post_deleted", { post_id: p.id, title: p.title });
          st.posts = st.posts.filter(function (x) { return x.id !== p.id; });
          st.comments = st.comments.filter(function (c) { return c.post !== p.id; });
        });
        TW.save(st);
        TW.api("posts/delete", { ids: ids });
        TW.toast(posts.length === 1 ? "Post deleted." : posts.length + " posts deleted.");
        document.getElementById("checkAll").checked = false;
        render();
      });
  }

  document.getElementById("bulkApply").addEventListener("click", function () {
    var action = document.getElementById("bulkAction").value;
    var ids = checkedIds();
    if (!action) { TW.toast("Choose a bulk action first.", "warn"); return; }
    if (!ids.length) { TW.toast("Select at least one post.", "warn"); return; }
    if (action === "delete") { deletePosts(ids); return; }
    var s = TW.load();
    ids.forEach(function (id) {
      var p = s.posts.find(function (x) { return x.id === id; });
      if (!p || p.status === "draft") return;
      p.status = "draft"; p.date = TW.NOW;
      TW.track("post_saved", TW.postRecord(p));
    });
    TW.save(s);
    TW.toast("Posts updated.");
    render();
  });

  render();
})();
(function () {
  var f = sessionStorage.getItem("tw-flash");
  if (f) { sessionStorage.removeItem("tw-flash"); TW.toast(f); }
})();
