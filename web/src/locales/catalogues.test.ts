// The message catalogues (web/src/locales/<language>/<namespace>.json): the Welsh has every message
// the English has and nothing else, each plural in all six of Welsh's forms, the same placeholders,
// and no English left in it (values identical to the English are allowed only for names and codes,
// listed in same-in-both.json).
import { describe, expect, it } from 'vitest';
import sameInBoth from './same-in-both.json';

type Catalogue = Record<string, unknown>;
const files = import.meta.glob<{ default: Catalogue }>('./*/*.json', { eager: true });

function catalogue(language: string): Map<string, Catalogue> {
  const byNamespace = new Map<string, Catalogue>();
  for (const [file, module] of Object.entries(files)) {
    const match = /^\.\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (match && match[1] === language) byNamespace.set(match[2]!, module.default);
  }
  return byNamespace;
}

/** Every message of a catalogue as `key.path` -> text. */
function flatten(value: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') into.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  } else throw new Error(`${prefix}: a message is text, not ${JSON.stringify(value)}`);
  return into;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const WELSH_FORMS = new Intl.PluralRules('cy').resolvedOptions().pluralCategories;
const ENGLISH_FORMS = new Intl.PluralRules('en-GB').resolvedOptions().pluralCategories;
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();
/** Text with its placeholders, numbers and punctuation taken out: what is left is words. */
const words = (text: string) => text.replace(/\{\{[^}]*\}\}|<\/?\d+>|[\d\s\p{P}\p{S}]/gu, '');

/** Messages grouped by key, a plural's forms under its base key. */
function grouped(messages: Map<string, string>): Map<string, Map<string, string>> {
  const groups = new Map<string, Map<string, string>>();
  for (const [key, text] of messages) {
    const base = key.replace(PLURAL, '');
    const form = PLURAL.exec(key)?.[1] ?? '';
    if (!groups.has(base)) groups.set(base, new Map());
    groups.get(base)!.set(form, text);
  }
  return groups;
}

const english = catalogue('en-GB');
const welsh = catalogue('cy');
const allowed = new Set(sameInBoth.values);

describe('message catalogues', () => {
  it('has the same namespaces in both languages', () => {
    expect([...welsh.keys()].sort()).toEqual([...english.keys()].sort());
    expect(english.size).toBeGreaterThan(0);
  });

  for (const namespace of english.keys()) {
    it(`${namespace}: the Welsh has every message, in every plural form, with the same placeholders, and none in English`, () => {
      const en = grouped(flatten(english.get(namespace)));
      const cy = grouped(flatten(welsh.get(namespace) ?? {}));
      const problems: string[] = [];
      for (const [key, forms] of en) {
        const welshForms = cy.get(key);
        if (!welshForms) {
          problems.push(`${key}: missing in Welsh`);
          continue;
        }
        const isPlural = !forms.has('');
        if (isPlural) {
          for (const form of ENGLISH_FORMS) if (!forms.has(form)) problems.push(`${key}: the English lacks the _${form} form`);
          for (const form of WELSH_FORMS) if (!welshForms.has(form)) problems.push(`${key}: the Welsh lacks the _${form} form`);
        } else if (!welshForms.has('')) problems.push(`${key}: a plural in Welsh, not in English`);
        const englishNames = new Set([...forms.values()].flatMap(placeholders));
        for (const [form, text] of welshForms) {
          const names = placeholders(text);
          for (const name of names) if (!englishNames.has(name)) problems.push(`${key}${form && `_${form}`}: {{${name}}} is not in the English`);
          const englishText = forms.get(form) ?? forms.get('other') ?? '';
          if (text.trim() === '') problems.push(`${key}${form && `_${form}`}: empty in Welsh`);
          else if (text === englishText && words(text) !== '' && !allowed.has(text)) {
            problems.push(`${key}${form && `_${form}`}: the Welsh is the English ("${text}")`);
          }
        }
        // The singular Welsh form must carry every placeholder the English does.
        const welshNames = new Set([...welshForms.values()].flatMap(placeholders));
        for (const name of englishNames) if (name !== 'count' && !welshNames.has(name)) problems.push(`${key}: the Welsh leaves out {{${name}}}`);
      }
      for (const key of cy.keys()) if (!en.has(key)) problems.push(`${key}: in Welsh only`);
      expect(problems).toEqual([]);
    });
  }
});
