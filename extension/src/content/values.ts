// What to put into an input of a given type (a subset of client/input_values.py): a date field
// takes 2016-12-02, a time field 21:37, a number field a plain number.
import { ActionError } from './page';

/** Input types whose value is set as a value (input and change fired), then read back. */
export const SET_AS_VALUE = new Set(['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week']);

const pad = (n: number): string => String(n).padStart(2, '0');

function asDate(text: string): string {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) return trimmed;
  // a/b/yyyy: day first when the first number cannot be a month, else month first (as the contract reads it)
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(trimmed);
  if (numeric) {
    const [first, second] = [Number(numeric[1]), Number(numeric[2])];
    const [month, day] = first > 12 ? [second, first] : [first, second];
    if (month < 1 || month > 12 || day < 1 || day > 31) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a date`);
    return `${numeric[3]}-${pad(month)}-${pad(day)}`;
  }
  const parsed = new Date(trimmed);
  if (Number.isNaN(parsed.getTime())) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a date (a date field takes e.g. 2016-12-02)`);
  return `${parsed.getFullYear()}-${pad(parsed.getMonth() + 1)}-${pad(parsed.getDate())}`;
}

function asTime(text: string): string {
  const match = /^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?\s*$/.exec(text);
  if (!match) throw new ActionError(`setValue: ${JSON.stringify(text)} is not a time of day (a time field takes e.g. 21:37)`);
  let hours = Number(match[1]);
  const meridiem = match[4]?.toLowerCase();
  if (meridiem === 'pm' && hours < 12) hours += 12;
  if (meridiem === 'am' && hours === 12) hours = 0;
  return `${pad(hours)}:${match[2]}${match[3] && match[3] !== '00' ? ':' + match[3] : ''}`;
}

function asNumber(text: string): string {
  const cleaned = text.trim().replace(/[,\s]/g, '');
  if (cleaned === '' || !Number.isFinite(Number(cleaned))) {
    throw new ActionError(`setValue: ${JSON.stringify(text)} is not a number, and a number field takes only numbers`);
  }
  return String(Number(cleaned));
}

export function shaped(type: string, text: string): string {
  switch (type) {
    case 'date': return asDate(text);
    case 'time': return asTime(text);
    case 'number': case 'range': return asNumber(text);
    default: return text;
  }
}

export function sameValue(type: string, wanted: string, held: string): boolean {
  if (type === 'range' || type === 'number') return Number(wanted) === Number(held);
  return wanted === held;
}
