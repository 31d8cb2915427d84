// Element templates (`pw-user`, `pw-text`, `pw-web_search`, …) as completion items, only where such an element
// can be inserted (core/request/templates.ts finds the slot): nothing inside a string or at a key.
import { renderTemplate, slotAt, type Slot, type Template } from '../request/templates';
import type { Format } from '../request/types';
import type { CompletionData } from './types';

const SLOT_LABEL: Record<Slot, string> = {
  message: 'message',
  content: 'content block',
  tool: 'tool',
  system: 'system block',
};

/** The templates that fit at `offset` of a request file, or undefined where no element can go. */
export function templateCompletions(
  text: string,
  offset: number,
  format: Format,
  templates: readonly Template[],
): CompletionData[] | undefined {
  const at = slotAt(text, offset, format);
  if (!at) return undefined;
  return templates
    .filter(t => t.slot === at.slot)
    .map((t, i) => ({
      label: t.name,
      kind: 'snippet' as const,
      detail: `Promptwright: ${SLOT_LABEL[t.slot]}`,
      documentation: t.description,
      insertText: renderTemplate(t, format, at),
      snippet: true,
      start: at.start,
      end: at.end,
      filterText: `${at.lead}${t.name}`,
      // the templates' own order: pw-user before pw-assistant
      sortText: `pw-${String(i).padStart(3, '0')}`,
      ...(at.commaAt !== undefined ? { additionalEdits: [{ start: at.commaAt, end: at.commaAt, newText: ',' }] } : {}),
    }));
}
