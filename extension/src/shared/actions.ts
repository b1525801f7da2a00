// The action grammar (verification/actions.py), parsed: `click("12")`, `setValue("12", "Jas")`,
// `press("Enter")`, `scroll("down")`, `wait(2)` … The server also sends `actionDetails` (the
// parsed form); this parser is for chain items without it and for what the panel shows.

export type ActionName =
  | 'click' | 'setValue' | 'select' | 'press' | 'scroll' | 'hover' | 'navigate' | 'goBack' | 'wait'
  | 'finish' | 'fail' | 'googleSearch';

export interface Action {
  name: ActionName;
  target?: string | null;
  value?: string | null;
  seconds?: number | null;
}

const NAMES: ActionName[] = ['click', 'setValue', 'select', 'press', 'scroll', 'hover', 'navigate', 'goBack', 'wait',
  'finish', 'fail', 'googleSearch'];
const BY_LOWER = new Map(NAMES.map((name) => [name.toLowerCase(), name]));
const DIRECTIONS = new Set(['up', 'down', 'left', 'right', 'top', 'bottom']);
export const TERMINAL = new Set<ActionName>(['finish', 'fail']);

/** The arguments of `name(a, "b", 'c')`: quoted strings (JSON escapes) or bare tokens. */
function args(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const skip = (): void => { while (i < text.length && /\s/.test(text[i])) i += 1; };
  skip();
  while (i < text.length) {
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      let j = i + 1;
      let raw = '';
      while (j < text.length && text[j] !== quote) {
        if (text[j] === '\\' && j + 1 < text.length) {
          const next = text[j + 1];
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"', "'": "'" };
          if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
            raw += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          raw += simple[next] ?? '\\' + next;
          j += 2;
          continue;
        }
        raw += text[j];
        j += 1;
      }
      if (j >= text.length) throw new Error(`unterminated string in ${text}`);
      out.push(raw);
      i = j + 1;
    } else {
      const match = /^[A-Za-z0-9_\-.:/#@+~?=&%]+/.exec(text.slice(i));
      if (!match) throw new Error(`unexpected ${JSON.stringify(text[i])} in an action`);
      out.push(match[0]);
      i += match[0].length;
    }
    skip();
    if (i < text.length) {
      if (text[i] !== ',') throw new Error(`expected ',' in an action, got ${JSON.stringify(text[i])}`);
      i += 1;
      skip();
    }
  }
  return out;
}

/** Parse one action; throws an Error that says what is wrong. */
export function parseAction(text: string): Action {
  const match = /^\s*([A-Za-z]+)\s*\(([\s\S]*)\)\s*;?\s*$/.exec(text);
  if (!match) throw new Error(`not an action of the grammar: ${JSON.stringify(text)}`);
  const name = BY_LOWER.get(match[1].toLowerCase());
  if (!name) throw new Error(`unknown action ${match[1]}`);
  const a = args(match[2]);
  switch (name) {
    case 'click': case 'hover':
      if (!a[0]) throw new Error(`${name}() needs an element id`);
      return { name, target: a[0] };
    case 'setValue': case 'select':
      if (a.length < 2) throw new Error(`${name}() needs an element id and a value`);
      return { name, target: a[0], value: a[1] };
    case 'press':
      if (a.length === 1) return { name, value: a[0] };
      if (a.length === 2) return { name, target: a[0], value: a[1] };
      throw new Error('press() takes a key, or an element id and a key');
    case 'scroll':
      if (a.length === 0) return { name };
      if (a.length === 1) return DIRECTIONS.has(a[0].toLowerCase()) ? { name, value: a[0].toLowerCase() } : { name, target: a[0] };
      return { name, target: a[0], value: a[1].toLowerCase() };
    case 'navigate': case 'googleSearch':
      if (a.length < 1) throw new Error(`${name}() needs a value`);
      return { name, value: a[0] };
    case 'wait': {
      if (!a.length) return { name };
      const seconds = Number(a[0]);
      if (a[0].trim() === '' || !Number.isFinite(seconds) || seconds < 0) throw new Error('wait() needs a number of seconds');
      return { name, seconds };
    }
    case 'finish': case 'fail':
      return { name, value: a[0] ?? null };
    case 'goBack':
      return { name };
  }
}

/** The parsed action: the server's `actionDetails` when given, else the text parsed. */
export function actionOf(text: string, details?: Action | null): Action {
  return details && details.name ? details : parseAction(text);
}
