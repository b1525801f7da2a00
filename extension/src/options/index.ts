// The options page: server URL and API key, saved in chrome.storage.local under `settings`
// (trusted contexts only: the worker sets that access level), and a connection test.
import { StepwiseApi } from '../api/client';
import { DEFAULT_SERVER, SETTINGS_KEY, type Settings, loadSettings } from '../shared/state';

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const serverInput = byId<HTMLInputElement>('server-url');
const keyInput = byId<HTMLInputElement>('api-key');
const saved = byId<HTMLParagraphElement>('saved');
const testResult = byId<HTMLParagraphElement>('test-result');

function current(): Settings {
  return { serverUrl: (serverInput.value.trim() || DEFAULT_SERVER).replace(/\/+$/, ''), apiKey: keyInput.value.trim() };
}

async function load(): Promise<void> {
  const settings = await loadSettings();
  serverInput.value = settings.serverUrl;
  keyInput.value = settings.apiKey;
}

byId<HTMLFormElement>('settings-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void (async () => {
    await chrome.storage.local.set({ [SETTINGS_KEY]: current() });
    saved.hidden = false;
    saved.textContent = `Saved at ${new Date().toLocaleTimeString()}.`;
  })();
});

byId<HTMLButtonElement>('test').addEventListener('click', () => {
  testResult.textContent = 'Testing…';
  testResult.dataset.ok = '';
  void new StepwiseApi(current()).check().then((result) => {
    testResult.textContent = result.message;
    testResult.dataset.ok = String(result.ready && result.authorized);
  });
});

void load();
