// Sunrise Clinic — shared helpers: menu, API calls, flash toasts.
(function () {
  const PAGES = [
    { href: '/patients', label: 'Patients' },
    { href: '/appointments', label: 'Appointments' },
    { href: '/settings', label: 'Settings' },
  ];

  function renderMenu() {
    const nav = document.querySelector('nav.menu');
    if (!nav) return;
    const here = location.pathname;
    nav.innerHTML = '<ul>' + PAGES.map((p) => {
      const current = here === p.href || here.startsWith(p.href + '/');
      return `<li><a href="${p.href}"${current ? ' aria-current="page"' : ''}>${p.label}</a></li>`;
    }).join('') + '</ul>';
  }

  async function api(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    const data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error((data && data.error) || response.statusText);
    return data;
  }

  function toast(message, ms) {
    const el = document.createElement('div');
    el.className = 'toast success';
    el.setAttribute('role', 'status');
    el.textContent = message;
    document.body.appendChild(el);
    setTimeout(() => el.remove(), ms || 8000);
  }

  function flash(message) { sessionStorage.setItem('clinic.flash', message); }

  function showFlash() {
    const message = sessionStorage.getItem('clinic.flash');
    if (message) {
      sessionStorage.removeItem('clinic.flash');
      toast(message);
    }
  }

  function escapeHtml(text) {
    return String(text == null ? '' : text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
  }

  window.clinic = { api, toast, flash, showFlash, escapeHtml };
  document.addEventListener('DOMContentLoaded', renderMenu);
})();
