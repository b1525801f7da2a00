// Unit tests of the network tracker (src/background/network.ts) with a hand-moved clock: what the
// stability wait counts as a request in flight, and when the tab's network is idle.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from './load.mjs';

const { NetworkTracker, RESPONDED_GRACE_MS } = await load('src/background/network.ts');

function tracker() {
  const clock = { t: 1000 };
  return { clock, net: new NetworkTracker(() => clock.t) };
}

test('network: a request counts from its start to its end, then the idle time runs', () => {
  const { clock, net } = tracker();
  net.watch(7);
  clock.t += 800;
  assert.equal(net.idleMs(7), 800);
  net.onStart('r1', 7, 'http://site.test/api/save', 'xmlhttprequest');
  clock.t += 600;
  assert.equal(net.inFlightCount(7), 1);
  assert.equal(net.idleMs(7), 0);
  net.onDone('r1');
  clock.t += 250;
  assert.equal(net.inFlightCount(7), 0);
  assert.equal(net.idleMs(7), 250);
  assert.equal(net.seen(7), 1);
});

test('network: other tabs, data: URLs and websockets never count; unwatched tabs are not tracked', () => {
  const { net } = tracker();
  net.watch(7);
  net.onStart('a', 8, 'http://other.test/', 'main_frame');
  net.onStart('b', 7, 'data:image/png;base64,AAAA', 'image');
  net.onStart('c', 7, 'ws://site.test/live', 'websocket');
  net.onStart('d', -1, 'http://127.0.0.1:8000/api/agent/interact', 'xmlhttprequest'); // the worker's own call
  assert.equal(net.inFlightCount(7), 0);
  assert.equal(net.seen(7), 0);
  assert.equal(net.idleMs(8), null);
  assert.equal(net.seen(8), null);
});

test('network: a response held open (a stream) stops counting after the grace', () => {
  const { clock, net } = tracker();
  net.watch(3);
  net.onStart('sse', 3, 'http://site.test/events', 'other');
  clock.t += 100;
  net.onResponse('sse');
  clock.t += RESPONDED_GRACE_MS - 1;
  assert.equal(net.inFlightCount(3), 1);
  clock.t += 1;
  assert.equal(net.inFlightCount(3), 0);
  assert.equal(net.idleMs(3), RESPONDED_GRACE_MS);
});

test('network: unwatch forgets the tab and its requests; an end seen later changes nothing', () => {
  const { clock, net } = tracker();
  net.watch(5);
  net.onStart('x', 5, 'https://site.test/slow', 'xmlhttprequest');
  net.unwatch(5);
  assert.equal(net.idleMs(5), null);
  net.onDone('x');
  net.watch(5);
  clock.t += 10;
  assert.equal(net.inFlightCount(5), 0);
  assert.equal(net.idleMs(5), 10);
  assert.equal(net.seen(5), 0);
});

test('network: watch is idempotent (a second arm does not reset the idle time or the count)', () => {
  const { clock, net } = tracker();
  net.watch(2);
  net.onStart('y', 2, 'https://site.test/a', 'script');
  net.onDone('y');
  clock.t += 400;
  net.watch(2);
  assert.equal(net.idleMs(2), 400);
  assert.equal(net.seen(2), 1);
});
