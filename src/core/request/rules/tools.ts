// Tool definitions (doc1 §2.6); names, input schemas and web search domains also from reports of the service's
// own messages (RULES.md, Evidence).
import { BETA_TOOL_TYPES } from '../betas';
import type { Path, PathProblem } from '../types';
import { betaUsed } from './betas';
import { given, isObj, type Obj, type RuleContext } from './common';
import { closedObjects, schemaShape, type SchemaTrees } from './schemas';

/** A custom tool's name: the service's message quotes this pattern (it was {1,64} until mid-2025). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const COMBINATORS = ['oneOf', 'allOf', 'anyOf'];

/** doc1 §2.6. */
export function toolRules(body: Obj, ctx: RuleContext, trees: SchemaTrees, out: PathProblem[]): void {
  if (!Array.isArray(body.tools)) return;
  const seen = new Map<string, number>();
  body.tools.forEach((t, i) => {
    if (!isObj(t)) return;
    const at: Path = ['tools', i];
    if (typeof t.name === 'string') {
      const first = seen.get(t.name);
      if (first !== undefined) {
        out.push({
          path: [...at, 'name'],
          anchor: 'value',
          severity: 'error',
          code: 'duplicate-tool-name',
          message: `Tool name "${t.name}" is already used by tools[${first}]; tool names must be unique.`,
        });
      } else seen.set(t.name, i);
    }
    const type = typeof t.type === 'string' ? t.type : undefined;
    // own keys only: a tool typed "toString" is not a beta feature
    const beta = type && Object.hasOwn(BETA_TOOL_TYPES, type) ? BETA_TOOL_TYPES[type] : undefined;
    if (beta) betaUsed(beta, [...at, 'type'], 'value', ctx, out);
    if (given(t.allowed_domains) && given(t.blocked_domains)) {
      out.push({
        path: [...at, 'blocked_domains'],
        anchor: 'key',
        severity: 'error',
        code: 'exclusive-domains',
        message: 'allowed_domains and blocked_domains are mutually exclusive: give only one.',
        fixes: [
          { kind: 'remove-property', title: 'Remove blocked_domains', path: [...at, 'blocked_domains'] },
          { kind: 'remove-property', title: 'Remove allowed_domains', path: [...at, 'allowed_domains'] },
        ],
      });
    }
    if (type?.startsWith('web_search_') && Array.isArray(t.blocked_domains) && !t.blocked_domains.length) {
      out.push({
        path: [...at, 'blocked_domains'],
        anchor: 'value',
        severity: 'error',
        code: 'web-search-empty-domain-list',
        message: 'An empty list of blocked_domains is ambiguous: give at least one domain, or leave the list out.',
        fixes: [{ kind: 'remove-property', title: 'Remove blocked_domains', path: [...at, 'blocked_domains'] }],
      });
    }
    if (isObj(t.user_location)) userLocationRules(t.user_location, [...at, 'user_location'], out);
    if (t.type === undefined || t.type === null || t.type === 'custom') customTool(t, at, trees, out);
  });
}

/** A custom tool: its name, and its input_schema as the service checks it. */
function customTool(t: Obj, at: Path, trees: SchemaTrees, out: PathProblem[]): void {
  if (typeof t.name === 'string' && t.name !== '' && !TOOL_NAME.test(t.name)) {
    const value = t.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 128);
    out.push({
      path: [...at, 'name'],
      anchor: 'value',
      severity: 'error',
      code: 'tool-name-pattern',
      message:
        `The tool name ${JSON.stringify(t.name)} is not one the service takes: 1 to 128 letters, digits, "_" ` +
        'and "-" (no spaces, dots or slashes).',
      fixes: [{ kind: 'replace-value', title: `Rename to "${value}"`, path: [...at, 'name'], value }],
    });
  }
  const schema = t.input_schema;
  if (!isObj(schema)) return;
  const on: Path = [...at, 'input_schema'];
  for (const k of COMBINATORS) {
    if (schema[k] === undefined || schema[k] === null) continue;
    out.push({
      path: [...on, k],
      anchor: 'key',
      severity: 'error',
      code: 'input-schema-combinator',
      message:
        `input_schema does not support ${k} at its top level: describe one object, and put the alternatives ` +
        'inside one of its properties.',
    });
  }
  const tree = trees.of(schema, on);
  const bad = schemaShape(tree);
  if (bad) {
    out.push({
      path: bad.at,
      anchor: 'value',
      severity: 'error',
      code: 'tool-input-schema-invalid',
      message: `input_schema is not a valid JSON Schema (draft 2020-12): ${bad.what}.`,
      ...(bad.fixes?.length ? { fixes: bad.fixes } : {}),
    });
  }
  if (t.strict === true) closedObjects(tree, 'strict-schema-not-closed', 'With "strict": true', out);
}

function userLocationRules(loc: Obj, at: Path, out: PathProblem[]): void {
  if (typeof loc.country === 'string' && !/^[A-Za-z]{2}$/.test(loc.country)) {
    out.push({
      path: [...at, 'country'],
      anchor: 'value',
      severity: 'error',
      code: 'country-code',
      message: `country must be a two-letter ISO country code such as "US" or "FR"; got "${loc.country}".`,
    });
  }
  if (typeof loc.timezone === 'string' && !isIanaZone(loc.timezone)) {
    out.push({
      path: [...at, 'timezone'],
      anchor: 'value',
      severity: 'warning',
      code: 'time-zone',
      message: `"${loc.timezone}" is not an IANA time zone this system knows (e.g. "Europe/Paris").`,
    });
  }
}

let zones: Set<string> | undefined;
function isIanaZone(z: string): boolean {
  try {
    zones ??= new Set((Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone'));
    if (zones.has(z) || z === 'UTC') return true;
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}
