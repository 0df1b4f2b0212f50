// Auth's own emails (recovery, reauthentication, email change; invite and magic link on hosted
// projects) from the templates of supabase/config.toml `[auth.email.template.<kind>]`: the same
// subject and the same HTML file hosted Supabase Auth renders, so the local Auth writes each person
// the email hosted Auth would, in their language (.Data.language, which the database keeps equal
// to profiles.language; docs/decisions/bilingual-server-output.md).
//
// Hosted Auth renders them as Go templates. This renders the part of that language the templates
// use, and refuses anything else (a template that needs more fails here first, not in production):
// `{{ .Field }}` and `{{ .Data.key }}` (HTML-escaped, as html/template does), and
// `{{ if COND }}…{{ else }}…{{ end }}` (nested), COND built from fields, "strings", `eq A B`,
// `and A B…` (stops at the first empty), `not A` and parentheses.
import fs from 'node:fs';
import path from 'node:path';
import { tomlSection } from './oauth.mjs';

/** The Auth email kinds a template may be given for. */
export const AUTH_EMAIL_KINDS = ['recovery', 'reauthentication', 'email_change', 'invite', 'magic_link', 'confirmation'];

/**
 * The templates of config.toml, read from their content_path (relative to the project's root, as
 * the Supabase CLI reads them): kind to {subject, html}. Kinds without a template are left out.
 * @param {string} toml @param {string} root
 * @returns {Record<string, { subject: string, html: string }>}
 */
export function emailTemplatesFromConfig(toml, root) {
  /** @type {Record<string, { subject: string, html: string }>} */
  const templates = {};
  for (const kind of AUTH_EMAIL_KINDS) {
    const section = tomlSection(toml, `auth.email.template.${kind}`);
    if (!section) continue;
    const subject = tomlString(section, 'subject');
    const contentPath = tomlString(section, 'content_path');
    if (subject === null || contentPath === null) continue;
    templates[kind] = { subject, html: fs.readFileSync(path.resolve(root, contentPath), 'utf8') };
  }
  return templates;
}

/** A basic (double-quoted) TOML string value of a key. @param {string} section @param {string} key */
function tomlString(section, key) {
  const match = new RegExp(`^\\s*${key}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'm').exec(section);
  return match ? JSON.parse(`"${match[1]}"`) : null;
}

const HTML_ESCAPES = /** @type {Record<string, string>} */ ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' });

/**
 * Renders a template with its data.
 * @param {string} template @param {Record<string, unknown>} data @param {{ escape?: boolean }} [options]
 */
export function renderAuthTemplate(template, data, { escape = true } = {}) {
  const parts = template.split(/(\{\{-?\s*[\s\S]*?\s*-?\}\})/);
  let at = 0;
  /** @returns {string} */
  function block(/** @type {boolean} */ inside) {
    let out = '';
    while (at < parts.length) {
      const part = parts[at++];
      const action = /^\{\{-?\s*([\s\S]*?)\s*-?\}\}$/.exec(part)?.[1];
      if (action === undefined) {
        out += part;
        continue;
      }
      if (action === 'else' || action === 'end') {
        if (!inside) throw new Error(`Unexpected {{ ${action} }}`);
        at -= 1;
        return out;
      }
      if (action.startsWith('if ')) {
        const condition = truthy(evaluate(action.slice(3), data));
        const yes = block(true);
        let no = '';
        if (parts[at] && /^\{\{-?\s*else\s*-?\}\}$/.test(parts[at])) {
          at += 1;
          no = block(true);
        }
        if (!parts[at] || !/^\{\{-?\s*end\s*-?\}\}$/.test(parts[at])) throw new Error('{{ if }} without {{ end }}');
        at += 1;
        out += condition ? yes : no;
        continue;
      }
      const value = evaluate(action, data);
      const text = value === undefined || value === null ? '' : String(value);
      out += escape ? text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]) : text;
    }
    if (inside) throw new Error('{{ if }} without {{ end }}');
    return out;
  }
  return block(false);
}

/** Go's truth: false, 0, nil and empty strings, maps and lists are false. @param {unknown} value */
function truthy(value) {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(/** @type {object} */ (value)).length > 0;
  return true;
}

/** Evaluates a pipeline of the subset above. @param {string} source @param {Record<string, unknown>} data */
function evaluate(source, data) {
  const tokens = source.match(/"(?:[^"\\]|\\.)*"|\(|\)|[^\s()]+/g) ?? [];
  let at = 0;
  /** @returns {unknown} */
  function argument() {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`Unfinished template action: ${source}`);
    if (token === '(') {
      const value = call();
      if (tokens[at++] !== ')') throw new Error(`Unbalanced parentheses: ${source}`);
      return value;
    }
    if (token.startsWith('"')) return JSON.parse(token);
    if (token.startsWith('.')) {
      /** @type {unknown} */
      let value = data;
      for (const key of token.slice(1).split('.').filter(Boolean)) {
        value = value !== null && typeof value === 'object' ? /** @type {Record<string, unknown>} */ (value)[key] : undefined;
      }
      return value;
    }
    throw new Error(`Template function or value not supported here: ${token}`);
  }
  /** @returns {unknown} */
  function call() {
    const head = tokens[at];
    if (head === 'eq') {
      at += 1;
      const first = argument();
      const second = argument();
      return first !== undefined && first === second;
    }
    if (head === 'and') {
      at += 1;
      let value = argument();
      while (at < tokens.length && tokens[at] !== ')') {
        if (!truthy(value)) {
          skip();
          continue;
        }
        value = argument();
      }
      return value;
    }
    if (head === 'not') {
      at += 1;
      return !truthy(argument());
    }
    return argument();
  }
  /** Passes over one argument without evaluating it (and stops at the first empty value, as Go's). */
  function skip() {
    let depth = 0;
    do {
      const token = tokens[at++];
      if (token === '(') depth += 1;
      if (token === ')') depth -= 1;
    } while (depth > 0 && at < tokens.length);
  }
  const value = call();
  if (at !== tokens.length) throw new Error(`Template action not supported here: ${source}`);
  return value;
}

/** The plain-text part of an HTML email: a line for each paragraph, links as their text. @param {string} html */
export function textOfHtml(html) {
  return html
    .replace(/<\/p>\s*/gi, '\n\n')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&#34;|&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    .split('\n').map((line) => line.trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * One Auth email from its template: subject, HTML and text; null when the kind has no template.
 * @param {Record<string, { subject: string, html: string }> | null | undefined} templates
 * @param {string} kind @param {Record<string, unknown>} data
 */
export function renderAuthEmail(templates, kind, data) {
  const template = templates?.[kind];
  if (!template) return null;
  const html = renderAuthTemplate(template.html, data);
  return { subject: renderAuthTemplate(template.subject, data, { escape: false }).replace(/[\r\n]+/g, ' ').trim(), html, text: textOfHtml(html) };
}
