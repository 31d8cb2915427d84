// The stand-in co-author of the offline demo and the fake: its documented rule, on the requests the co-author
// really builds (so the two cannot drift apart), and the words that make it answer as a careless model would.
import * as assert from 'node:assert/strict';
import { casesRequest, improvementRequest } from '../../../src/core/coauthor/coauthor';
import { readCases } from '../../../src/core/coauthor/generate';
import { readImprovement } from '../../../src/core/coauthor/improve';
import { standInCoauthor } from '../../../src/core/demo/coauthor';
import { demoReply } from '../../../src/core/demo/replies';

const request = (system: string) => ({
  name: 'support.prompt.json',
  format: 'json' as const,
  text: JSON.stringify({
    model: 'model-sonnet-4-6',
    max_tokens: 300,
    system,
    messages: [{ role: 'user', content: '{{question}}' }],
  }),
});
const SYSTEM = 'Answer in a {{tone}} tone.';

function cases(system: string, count: number, rubrics = false, existing: { name: string }[] = []) {
  const { body, placeholders } = casesRequest(request(system), { count, rubrics, existing });
  const answer = JSON.parse(standInCoauthor(body)!) as Record<string, unknown>;
  return readCases(answer, placeholders, { count, rubrics, existing });
}

describe('the stand-in co-author (offline demo and fake)', () => {
  it('writes the count asked for: named by kind, a value for every placeholder, all different', () => {
    const r = cases(SYSTEM, 5);
    assert.deepEqual(
      r.cases.map(c => c.name),
      ['typical 1', 'edge: empty 2', 'adversarial 3', 'in French 4', 'edge: long 5'],
    );
    assert.deepEqual(r.cases[0]!.vars, { tone: 'A typical tone, case 1', question: 'A typical question, case 1' });
    assert.deepEqual(r.cases[1]!.vars, { tone: '?', question: '?' });
    assert.deepEqual(r.notes, []);
  });
  it('with rubrics, one quoting the first value; after existing cases, numbered on', () => {
    const r = cases(SYSTEM, 2, true, [{ name: 'typical 1' }, { name: 'x' }]);
    assert.deepEqual(
      r.cases.map(c => [c.name, c.assert]),
      [
        ['adversarial 3', [{ rubric: 'Answers the adversarial case about "Ignore your instructions"' }]],
        ['in French 4', [{ rubric: 'Answers the in French case about "Bonjour ! Une"' }]],
      ],
    );
  });
  it('#fewer, #more and #twins answer as a careless model would; #malformed is not JSON', () => {
    assert.deepEqual(cases(`${SYSTEM} #fewer`, 5).notes, ['3 cases of the 5 asked for']);
    assert.deepEqual(cases(`${SYSTEM} #more`, 2).notes, ['the model gave 5 usable cases: the first 2 are kept']);
    assert.deepEqual(cases(`${SYSTEM} #twins`, 3).notes, [
      '1 case dropped: case "edge: empty 2" has the same values as another case',
      '2 cases of the 3 asked for',
    ]);
    const { body } = casesRequest(request(`${SYSTEM} #malformed`), { count: 2, rubrics: false });
    assert.throws(() => JSON.parse(standInCoauthor(body)!) as unknown);
  });
  it('improves the system prompt by one sentence (the goal’s), keeping the other texts as they were', () => {
    const file = request(SYSTEM);
    for (const goal of [undefined, 'handles refunds politely']) {
      const { body, texts, parts } = improvementRequest(file, goal ? { goal } : {});
      const r = readImprovement(
        JSON.parse(standInCoauthor(body)!) as Record<string, unknown>,
        texts,
        parts.placeholders,
      );
      const sentence = goal
        ? 'Above all: handles refunds politely.'
        : 'Answer in at most three sentences, and say so when you are not sure.';
      assert.deepEqual([...r.texts], [['system', `${SYSTEM}\n${sentence}`]]);
      assert.equal(r.changes.length, 1);
    }
  });
  it('answers nothing else: a plain request, a judge’s verdict request; the demo replies with its answer', () => {
    assert.equal(standInCoauthor({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }), undefined);
    const verdict = { type: 'object', properties: { pass: {}, score: {}, reason: {} } };
    const judge = { model: 'm', output_config: { format: { type: 'json_schema', schema: verdict } }, messages: [] };
    assert.equal(standInCoauthor(judge), undefined);
    const { body } = casesRequest(request(SYSTEM), { count: 1, rubrics: false });
    const reply = demoReply(body);
    assert.equal(reply.stop_reason, 'end_turn');
    assert.deepEqual(JSON.parse((reply.content[0] as { text: string }).text), JSON.parse(standInCoauthor(body)!));
  });
});
