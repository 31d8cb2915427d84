// Text from files and the service set into Markdown (hovers and completion details of both front ends, the status
// bar's trusted tooltip, the trees' tooltips, the cache breakpoint's hover) stays text: no link (a `command:` one
// runs in a trusted tooltip), no image (a remote one is fetched when shown), no tag, no icon can come from it. Each
// builder is given the same hostile strings and what Markdown would act on in its answer is read back.
import * as assert from 'node:assert/strict';
import { inviteView, userView, workspaceView } from '../../src/core/admin/view';
import { hoverMarkdown } from '../../src/core/cache/words';
import { attachmentView, chatView, organizationView } from '../../src/core/compliance/view';
import { placeholderHover } from '../../src/core/language/caseAssist';
import { modelCompletions, modelHover, type LoadedModels } from '../../src/core/language/modelAssist';
import { parseCaseFile } from '../../src/core/cases/caseFile';
import { ModelCatalog } from '../../src/core/models/catalog';
import type { ServiceModel } from '../../src/core/models/types';
import { markdownCode, markdownText, notificationText } from '../../src/core/text';
import { renderStatus } from '../../src/core/tokens/status';
import { fakeModels } from '../fake/models';

/** A link to a command, a remote image, a tag, an icon and a backtick run to break out of a code span. */
const HOSTILE = 'x](command:workbench.action.terminal.new) ![](https://evil.example/x.png) <img src=x> $(alert) `` `';

/**
 * What Markdown acts on in `md`, outside code spans and backslash escapes: the brackets of links and images, the
 * angle brackets of tags and autolinks, and `$(` of icons; each found with a little of what follows it.
 */
function live(md: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < md.length; i++) {
    const c = md[i]!;
    if (c === '\\' && /[!-/:-@[-`{-~]/.test(md[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(md.slice(i))![0];
      const close = md.slice(i + run.length).search(new RegExp(`(?<!\`)${run}(?!\`)`));
      if (close >= 0) {
        i += run.length + close + run.length - 1;
        continue;
      }
      i += run.length - 1;
      continue;
    }
    if ('[]<>'.includes(c) || (c === '$' && md[i + 1] === '(')) found.push(md.slice(i, i + 12));
  }
  return found;
}

/** `live`, with the builder's own links taken out first. */
function liveBut(md: string, own: readonly string[]): string[] {
  return live(own.reduce((s, link) => s.split(link).join(''), md));
}

const hostileModel = (): ServiceModel => ({
  ...fakeModels()[0]!,
  id: `model-evil-1 ${HOSTILE}`,
  display_name: `Evil ${HOSTILE}`,
  created_at: HOSTILE,
});

describe('Markdown from files and the service stays text', () => {
  it('markdownText and markdownCode: nothing live, the text read back as it was', () => {
    assert.deepEqual(live(markdownText(HOSTILE)), []);
    assert.deepEqual(live(markdownCode(HOSTILE)), []);
    assert.equal(markdownText(HOSTILE).replace(/\\(.)/g, '$1'), HOSTILE);
    assert.equal(markdownText('a\nb\r\nc', ' ↵ '), 'a ↵ b ↵ c');
    assert.equal(markdownCode('a `b` c'), '``a `b` c``');
    assert.equal(markdownCode('`x'), '`` `x ``');
    assert.equal(markdownCode('a|b', { table: true }), '`a\\|b`');
  });

  it('a notification links nothing: `](` is parted by a zero-width space', () => {
    assert.equal(notificationText('see [this](command:x) now'), 'see [this]\u200b(command:x) now');
    assert.doesNotMatch(notificationText(HOSTILE), /\]\(/);
  });

  it('the status bar’s trusted tooltip: the model, a revision, an error’s type, message and request-id', () => {
    const own = [
      '[Count now](command:promptwright.countTokens)',
      '[Token breakdown](command:promptwright.tokenBreakdown)',
      '[Show log](command:promptwright.showLog)',
    ];
    const meta = { model: HOSTILE, maxTokens: 10, base: { ref: HOSTILE, kind: 'error' as const, message: HOSTILE } };
    const states = [
      { kind: 'count', tokens: 12, at: 0, stale: false, cached: false, requestId: HOSTILE },
      { kind: 'error', type: HOSTILE, message: HOSTILE, requestId: HOSTILE, previous: 3 },
      { kind: 'retrying', why: HOSTILE, inMs: 1000, previous: 3 },
    ] as const;
    for (const s of states) {
      const tip = renderStatus(s, meta).tooltip;
      assert.deepEqual(liveBut(tip, own), [], `${s.kind}: ${tip}`);
      assert.ok(tip.includes('workbench.action.terminal.new'), 'the hostile text is shown');
    }
  });

  it('the model hover and completion: an id from the file, a name, a date and a problem from the service', () => {
    const catalog = new ModelCatalog([hostileModel()]);
    const loaded: LoadedModels = { source: 'kept', catalog, fetchedAt: 0, problem: HOSTILE };
    const id = `model-evil-1 ${HOSTILE}`;
    const known = modelHover({ id, start: 0, end: 1, quote: '"' }, loaded)!.markdown;
    assert.match(known, /Evil/);
    const unknown = modelHover({ id: HOSTILE, start: 0, end: 1, quote: '"' }, loaded)!.markdown;
    assert.match(unknown, /is in neither/);
    const completion = modelCompletions({ start: 0, end: 0, quote: '"' }, catalog.entries(), loaded, 'json');
    for (const md of [known, unknown, ...completion.map(c => c.documentation!)])
      assert.deepEqual(
        live(md).filter(x => !x.startsWith('$(warning)') && !x.startsWith('$(error)')),
        [],
        md,
      );
  });

  it('the trees’ tooltips: workspaces, users, invites, chats, attachments and organizations', () => {
    const views = [
      workspaceView({
        id: HOSTILE,
        type: 'workspace',
        name: HOSTILE,
        created_at: HOSTILE,
        archived_at: HOSTILE,
        display_color: HOSTILE,
        data_residency: { workspace_geo: HOSTILE, allowed_inference_geos: [HOSTILE], default_inference_geo: HOSTILE },
        tags: { [HOSTILE]: HOSTILE },
      }),
      userView({ id: HOSTILE, type: 'user', name: HOSTILE, email: HOSTILE, role: HOSTILE, added_at: HOSTILE } as never),
      inviteView(
        {
          id: HOSTILE,
          type: 'invite',
          email: HOSTILE,
          role: HOSTILE,
          status: HOSTILE,
          invited_at: HOSTILE,
          expires_at: HOSTILE,
        } as never,
        new Date(0),
      ),
      chatView({ id: HOSTILE, type: 'chat', name: HOSTILE, created_at: HOSTILE, [HOSTILE]: HOSTILE }),
      attachmentView({ id: HOSTILE, type: HOSTILE, name: HOSTILE, created_at: HOSTILE }),
      organizationView({ id: HOSTILE, name: HOSTILE, parent_id: HOSTILE }, 2),
    ];
    for (const v of views) assert.deepEqual(live(v.tooltip), [], v.tooltip);
  });

  it('the cache breakpoint’s hover and the placeholder hover: the model, an error, case names and values', () => {
    const body = { model: HOSTILE, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    const breakpoint = {
      index: 1,
      total: 1,
      marker: {
        at: ['messages', 0, 'content', 0, 'cache_control'],
        holder: [],
        block: [],
        ttl: '5m',
        automatic: false,
      },
      minimum: undefined,
    };
    const hover = hoverMarkdown(breakpoint as never, { source: 'estimate', tokens: 3, error: HOSTILE } as never, body);
    assert.deepEqual(live(hover), [], hover);
    const quoted = JSON.stringify(HOSTILE);
    const caseText = `request: r.prompt.yaml\ncases:\n  - name: ${quoted}\n    vars: { q: ${quoted} }\n`;
    const file = parseCaseFile(caseText, 'yaml').file!;
    const text = 'content: "{{q}}"';
    const md = placeholderHover(text, text.indexOf('q'), [{ name: HOSTILE, file }])!.markdown;
    assert.ok(md.includes('workbench'), md);
    // the table's own pipes aside
    assert.deepEqual(live(md), [], md);
  });
});
