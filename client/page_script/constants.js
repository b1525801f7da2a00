// Fragment of the in-page script (what it looks for); the extension build joins the fragments, in
// parts.json order, into one function scope: names are shared across files.

const VERSION = 11;
if (window.__stepwise && window.__stepwise.version === VERSION) return;

const ATTR = 'data-llm-id';
const NAME_MAX = 120;
const GROUP_LABEL_MAX = 60; // a text opening a field's group longer than this is prose, not its label
const VALUE_MAX = 200;
const FIELD_VALUE_MAX = 2000;
const EVENTS_MAX = 20;

const INTERACTIVE = [
  'a[href]', 'a[title]', 'a[data-handler]', 'a[role]', '[data-action]', 'button', 'input:not([type="hidden"])', 'select', 'textarea', 'summary',
  '[contenteditable=""]', '[contenteditable="true"]', '[onclick]', '[tabindex]:not([tabindex="-1"])',
  '[role="button"]', '[role="link"]', '[role="checkbox"]', '[role="switch"]', '[role="radio"]',
  '[role="tab"]', '[role="menuitem"]', '[role="menuitemcheckbox"]', '[role="menuitemradio"]',
  '[role="option"]', '[role="combobox"]', '[role="listbox"]', '[role="textbox"]',
  '[role="searchbox"]', '[role="slider"]', '[role="spinbutton"]', '[role="treeitem"]',
].join(',');
const ROLE_ATTR = {
  button: 'btn', link: 'link', checkbox: 'chk', switch: 'switch', radio: 'radio', tab: 'tab',
  menuitem: 'menuitem', menuitemcheckbox: 'menuitem', menuitemradio: 'menuitem', option: 'option',
  combobox: 'sel', listbox: 'sel', textbox: 'inp', searchbox: 'inp', slider: 'slider',
  spinbutton: 'spinbutton', treeitem: 'treeitem',
};
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);
const MESSAGE_SELECTOR = [
  '[role="alert"]', '[role="status"]', '[aria-live="polite"]', '[aria-live="assertive"]',
  '.error', '.errors', '.error-message', '.invalid-feedback', '.success', '.toast', '.alert',
  '.notification', '.flash',
].join(',');

const clip = (text, max) => {
  const out = text || '';
  return out.length > max ? out.slice(0, max - 1) + '…' : out;
};

const collapse = (text, max) => {
  const out = (text || '').replace(/\s+/g, ' ').trim();
  return max && out.length > max ? out.slice(0, max - 1) + '…' : out;
};

// An icon control that is not marked up as one (a <span class="trash">, <i id="star-3">): an
// element with a pointer cursor whose class or id words name what it does. It is collected
// even inside a clickable row, named by its text, title or alt, else by those words.
const ICON_WORDS = new Set(['trash', 'delete', 'remove', 'bin', 'star', 'reply', 'forward', 'archive',
  'flag', 'important', 'send', 'close', 'edit', 'pin', 'like', 'share', 'retweet', 'bookmark',
  'favorite', 'favourite', 'unread', 'spam', 'snooze', 'mute', 'retweet', 'repost', 'comment', 'follow', 'block',
  'report']);
// Class words of a record's overflow control (the "more" / kebab / "⋯" that opens its menu of
// actions), and the glyphs such a control shows instead of a word.
const OVERFLOW_WORDS = new Set(['more', 'menu', 'options', 'actions', 'kebab', 'ellipsis', 'overflow', 'dots']);
const OVERFLOW_GLYPHS = new Set(['⋯', '…', '...', '⋮', '︙', '•••', '···']);
// Class words with which such an icon says it is on (a clicked star: class="star clicked").
const ICON_ON_WORDS = new Set(['active', 'on', 'checked', 'selected', 'pressed', 'clicked', 'starred', 'flagged',
  'toggled', 'marked', 'liked', 'pinned']);
