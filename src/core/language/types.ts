// What the language features answer, in plain offsets (UTF-16 code units into the text, as core/request's
// problems are): each front end (the VS Code extension, the language server) turns them into its own types.
import type { TextEdit } from '../request/fixes';

/** What a completion item is, for the icon the editor shows. */
export type CompletionKind = 'snippet' | 'field' | 'value' | 'variable';

export interface CompletionData {
  label: string;
  kind: CompletionKind;
  /** shown beside the label (a model's name, "alias of …") */
  description?: string;
  /** one line under or beside the label */
  detail?: string;
  /** Markdown */
  documentation?: string;
  insertText: string;
  /** `insertText` is a snippet (`${1:text}` placeholders) */
  snippet?: boolean;
  /** the text the item replaces */
  start: number;
  end: number;
  filterText?: string;
  sortText?: string;
  /** edits elsewhere in the text made with the item (a comma after the element before) */
  additionalEdits?: TextEdit[];
  /** the text is indented for its place already: the editor must not adjust its whitespace */
  keepWhitespace?: boolean;
  /** what was inserted leads on to more choices (a field's values): the editor asks again */
  retrigger?: boolean;
}

export interface HoverData {
  /** Markdown */
  markdown: string;
  start: number;
  end: number;
}

/**
 * A quick fix: text edits (one undoable change), or for a beta the value to add to the `betas` setting.
 * `preferred`: the fix is clearly right (the editor's "auto fix"); a problem's only fix is preferred anyway.
 */
export type FixAction =
  { title: string; preferred: boolean; edits: TextEdit[] } | { title: string; preferred: boolean; beta: string };
