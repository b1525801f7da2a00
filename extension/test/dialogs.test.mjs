// Unit tests of the native-dialog hook (src/background/hook.ts: the functions injected into the
// page's main world) and of the worker's validation of what comes back (src/background/dialogs.ts).
// The hook runs here on node's globalThis, with fake confirm/alert/prompt standing in for the browser's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from './load.mjs';

const hook = await load('src/background/hook.ts');
const dialogs = await load('src/background/dialogs.ts');

function fakeWindow() {
  const calls = [];
  const originals = {
    confirm: (m) => { calls.push(['confirm', m]); return true; },
    alert: (m) => { calls.push(['alert', m]); },
    prompt: (m) => { calls.push(['prompt', m]); return 'typed'; },
  };
  Object.assign(globalThis, originals);
  return { calls, originals };
}

test('hook: answers the safe way and records kind, message, answer', () => {
  const { calls, originals } = fakeWindow();
  assert.equal(hook.installDialogHook('k1', false, 300, 10), true);
  assert.equal(globalThis.confirm('Delete order 42?\n  This cannot be undone.'), false);
  assert.equal(globalThis.prompt('Your name?'), null);
  assert.equal(globalThis.alert('Saved'), undefined);
  assert.deepEqual(calls, []); // the browser's own dialogs never came up
  const taken = hook.takeDialogHook('k1');
  assert.deepEqual(taken.records, [
    { kind: 'confirm', message: 'Delete order 42? This cannot be undone.', answered: 'dismissed' },
    { kind: 'prompt', message: 'Your name?', answered: 'dismissed' },
    { kind: 'alert', message: 'Saved', answered: 'accepted' },
  ]);
  assert.equal(globalThis.confirm, originals.confirm); // restored
  assert.equal(globalThis.alert, originals.alert);
  assert.equal(globalThis.prompt, originals.prompt);
  assert.equal(Object.prototype.hasOwnProperty.call(globalThis, 'k1'), false);
  assert.equal(hook.takeDialogHook('k1'), null); // taken once
});

test('hook: a confirm the action was told to accept is accepted once, then dismissed', () => {
  fakeWindow();
  hook.installDialogHook('k2', true, 300, 10);
  assert.equal(globalThis.confirm('Delete order 42?'), true);
  assert.equal(globalThis.confirm('And order 43?'), false);
  assert.deepEqual(hook.takeDialogHook('k2').records.map((r) => r.answered), ['accepted', 'dismissed']);
});

test('hook: messages clipped, records bounded, odd arguments survive, a second install is refused', () => {
  fakeWindow();
  assert.equal(hook.installDialogHook('k3', false, 20, 3), true);
  assert.equal(hook.installDialogHook('k3', true, 20, 3), false);
  globalThis.confirm('x'.repeat(50));
  globalThis.alert();
  globalThis.alert({ toString() { throw new Error('no'); } });
  globalThis.alert('fourth');
  const taken = hook.takeDialogHook('k3');
  assert.deepEqual(taken.records.map((r) => r.message), ['x'.repeat(20), '', '']);
  assert.equal(taken.dropped, 1);
});

test('hook: a page that replaced confirm meanwhile keeps its own', () => {
  const { originals } = fakeWindow();
  hook.installDialogHook('k4', false, 300, 10);
  const mine = () => true;
  globalThis.confirm = mine;
  hook.takeDialogHook('k4');
  assert.equal(globalThis.confirm, mine);
  assert.equal(globalThis.alert, originals.alert);
});

test('validate: page data becomes report entries only when well-formed, clipped, bounded', () => {
  const good = { kind: 'confirm', message: ' Delete\norder 42? ', answered: 'dismissed' };
  assert.deepEqual(dialogs.validate({ records: [good] }, 'click("2")'), [
    { kind: 'confirm', message: 'Delete order 42?', action: 'click("2")', answered: 'dismissed' },
  ]);
  const forged = [
    { kind: 'navigate', message: 'x', answered: 'accepted' },
    { kind: 'confirm', message: 'x', answered: 'yes' },
    { kind: 'alert', message: 42, answered: 'accepted', action: 'click("9")', extra: 1 },
    'confirm', null,
    { kind: 'prompt', message: 'y'.repeat(1000), answered: 'dismissed' },
  ];
  const out = dialogs.validate({ records: forged }, 'click("2")');
  assert.deepEqual(out.map((d) => [d.kind, d.message.length, d.action]), [['alert', 0, 'click("2")'], ['prompt', 300, 'click("2")']]);
  assert.deepEqual(dialogs.validate(null, 'a'), []);
  assert.deepEqual(dialogs.validate({ records: 'nope' }, 'a'), []);
  assert.equal(dialogs.validate({ records: Array(20).fill(good) }, 'a').length, 10);
  assert.equal(dialogs.validate({ records: Array(20).fill(good) }, 'a', 3).length, 3);
  assert.equal(dialogs.validate({ records: [good] }, 'a', 0).length, 0);
});

test('acceptsDialog: only actionDetails.dialog === "accept"', () => {
  assert.equal(dialogs.acceptsDialog({ name: 'click', target: '2', dialog: 'accept' }), true);
  assert.equal(dialogs.acceptsDialog({ name: 'click', target: '2' }), false);
  assert.equal(dialogs.acceptsDialog({ dialog: 'Accept' }), false);
  assert.equal(dialogs.acceptsDialog(null), false);
  assert.equal(dialogs.acceptsDialog('accept'), false);
});
