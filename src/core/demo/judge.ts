// The stand-in judge of the offline demo and of the project's fake of the service: no model grades anything
// there, so a rule anyone can predict answers a judge's request (one that asks for the verdict schema of
// core/cases/judge.ts through output_config.format):
//
// - the criteria are the text of the prompt's first <criteria> section (the whole prompt when it has none);
//   the reply is the text of its <reply> section (the whole prompt when it has none);
// - every phrase the criteria quote ("…" or “…”) is looked for in the reply, ignoring case: the verdict passes
//   when every one is found; its score is the share found; its reason names what was found and what was not;
// - criteria that quote nothing pass, with a score of 1, and the reason says why;
// - criteria holding the word #malformed get an answer that is not JSON (to show a malformed verdict).

type Json = Record<string, unknown>;

const QUOTED = /"([^"]+)"|“([^”]+)”/g;

/** Whether a request is a judge's: its output format is the verdict schema {pass, score, reason}. */
function isJudgeRequest(body: Json): boolean {
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  const schema = format?.type === 'json_schema' ? (format.schema as Json | undefined) : undefined;
  const keys = Object.keys((schema?.properties as Json | undefined) ?? {}).sort();
  return keys.join(',') === 'pass,reason,score';
}

function promptText(body: Json): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const last = messages[messages.length - 1];
  const content = last?.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? (content as Json[]).map(b => (typeof b.text === 'string' ? b.text : '')).join('\n')
    : '';
}

/** A tag's section: from the first opening tag to the last closing one (a reply may mention the tag itself). */
function section(text: string, tag: string, last: boolean): string | undefined {
  const open = text.indexOf(`<${tag}>`);
  const close = last ? text.lastIndexOf(`</${tag}>`) : text.indexOf(`</${tag}>`, open);
  return open >= 0 && close > open ? text.slice(open + tag.length + 2, close).trim() : undefined;
}

const list = (phrases: string[]) => phrases.map(p => JSON.stringify(p)).join(', ');

/** The stand-in judge's answer to a judge's request (the text of its reply), or undefined for any other request. */
export function standInVerdict(body: Json): string | undefined {
  if (!isJudgeRequest(body)) return undefined;
  const prompt = promptText(body);
  const criteria = section(prompt, 'criteria', false) ?? prompt;
  const reply = (section(prompt, 'reply', true) ?? prompt).toLowerCase();
  if (criteria.includes('#malformed')) return 'This reply looks fine to me.';
  const phrases = [...criteria.matchAll(QUOTED)].map(m => (m[1] ?? m[2])!);
  if (!phrases.length) {
    const reason = 'The criteria quote no phrase, and the stand-in judge only looks for quoted phrases: passed.';
    return JSON.stringify({ pass: true, score: 1, reason });
  }
  const found = phrases.filter(p => reply.includes(p.toLowerCase()));
  const missing = phrases.filter(p => !found.includes(p));
  const score = Math.round((found.length / phrases.length) * 100) / 100;
  const reason = missing.length
    ? `The reply lacks ${list(missing)}${found.length ? `; it has ${list(found)}` : ''}.`
    : `The reply has ${list(found)}.`;
  return JSON.stringify({ pass: !missing.length, score, reason });
}
