// Unit tests of the extension's pure modules (node's test runner): the action grammar and the
// chain guards' checks. The parity of the grammar with the server's parser is checked from Python
// (tests/integration/test_extension_units.py feeds the cases file given in STEPWISE_ACTION_CASES).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { load } from './load.mjs';

const actions = await load('src/shared/actions.ts');
const guards = await load('src/background/guards.ts');

test('actions: the grammar parses what the server writes', () => {
  assert.deepEqual(actions.parseAction('click("12")'), { name: 'click', target: '12' });
  assert.deepEqual(actions.parseAction('setValue("f1-3", "Jas \\"J\\" \\u00e9")'), { name: 'setValue', target: 'f1-3', value: 'Jas "J" é' });
  assert.deepEqual(actions.parseAction("press('Enter')"), { name: 'press', value: 'Enter' });
  assert.deepEqual(actions.parseAction('press("4", "Tab");'), { name: 'press', target: '4', value: 'Tab' });
  assert.deepEqual(actions.parseAction('scroll("DOWN")'), { name: 'scroll', value: 'down' });
  assert.deepEqual(actions.parseAction('scroll("7", "bottom")'), { name: 'scroll', target: '7', value: 'bottom' });
  assert.deepEqual(actions.parseAction('wait(1.5)'), { name: 'wait', seconds: 1.5 });
  assert.deepEqual(actions.parseAction('finish()'), { name: 'finish', value: null });
  assert.deepEqual(actions.parseAction('navigate(https://example.com/a?b=1)'), { name: 'navigate', value: 'https://example.com/a?b=1' });
  assert.throws(() => actions.parseAction('explode("1")'), /unknown action/);
  assert.throws(() => actions.parseAction('click()'), /needs an element id/);
  assert.throws(() => actions.parseAction('click("1"'), /not an action/);
});

test('guards: a value is held as the Python client reads it', () => {
  assert.ok(guards.holds({ exists: true, value: ' Jas ' }, 'Jas'));
  assert.ok(!guards.holds({ exists: true, value: 'Ja' }, 'Jas'));
  assert.ok(guards.holds({ exists: true, selected: [{ value: 'fr', text: 'France' }] }, 'france'));
  assert.ok(guards.holds({ exists: true, checked: true }, 'true'));
  assert.ok(guards.holds({ exists: true, checked: false }, 'no'));
  assert.ok(guards.holds({ exists: true, value: '3', ty: 'number' }, '3.0'));
  assert.ok(guards.holds({ exists: true, text: 'Blue' }, 'Blue'));
});

test('guards: target checks give the failure kinds of the chain contract', () => {
  const button = { exists: true, role: 'button', name: 'Submit', perceivable: true, covered: false };
  assert.equal(guards.checkTarget('9', button, { role: 'button', name: 'submit ' }), null);
  assert.equal(guards.checkTarget('9', button, { role: 'btn', name: '' }), null);
  assert.equal(guards.checkTarget('9', { exists: false }, null).kind, 'target_missing');
  assert.equal(guards.checkTarget('9', { ...button, perceivable: false }, null).kind, 'target_missing');
  assert.equal(guards.checkTarget('9', { ...button, covered: true }, null).kind, 'covered');
  const changed = guards.checkTarget('9', { ...button, name: 'Delete account' }, { role: 'button', name: 'Submit' });
  assert.equal(changed.kind, 'target_changed');
  assert.equal(changed.message, "target changed: expected button \"Submit\", found button \"Delete account\"");
  assert.equal(guards.checkRequired([['3', 'Jas']], { 3: { exists: true, value: 'Bob', role: 'textbox', name: 'Name' } }).kind, 'required_value_mismatch');
  assert.equal(guards.checkReadback('3', { exists: true, value: 'Ja' }, 'Jas').kind, 'value_mismatch');
  assert.ok(guards.samePage('http://a/x#one', 'http://a/x#two'));
  assert.ok(!guards.samePage('http://a/x', 'http://a/y'));
});

// Cases written by the server's grammar (Python): each action parses to the same fields.
test('actions: parity with the server grammar', { skip: !process.env.STEPWISE_ACTION_CASES }, () => {
  const cases = JSON.parse(readFileSync(process.env.STEPWISE_ACTION_CASES, 'utf8'));
  const results = cases.map(({ text }) => {
    try {
      const parsed = actions.parseAction(text);
      return { text, parsed: { name: parsed.name, target: parsed.target ?? null, value: parsed.value ?? null, seconds: parsed.seconds ?? null } };
    } catch (error) {
      return { text, error: String(error.message) };
    }
  });
  writeFileSync(process.env.STEPWISE_ACTION_CASES + '.out', JSON.stringify(results));
});
