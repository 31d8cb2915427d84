// Command ids as package.json contributes them: one scheme (`promptwright.verbNoun`), and every id a command had
// before still contributed, hidden from the Command Palette, and registered (src/extension.ts) to run the command
// it became, so a keybinding that names it keeps working.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { FORMER_COMMAND_IDS } from '../../src/vscode/platform/formerCommands';

interface Contributes {
  commands: { command: string; title: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  keybindings: { command: string }[];
}
const { contributes } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { contributes: Contributes };
const contributed = new Set(contributes.commands.map(c => c.command));
const former = Object.keys(FORMER_COMMAND_IDS);

describe('command ids (package.json)', () => {
  it('every current id follows the one scheme, promptwright.verbNoun', () => {
    const current = [...contributed].filter(id => !(id in FORMER_COMMAND_IDS));
    assert.ok(current.length >= 60, `${current.length} commands`);
    assert.deepEqual(
      current.filter(id => !/^promptwright\.[a-z][A-Za-z]*$/.test(id)),
      [],
    );
  });
  it('every former id is contributed, hidden from the Command Palette, and runs a current command', () => {
    assert.ok(former.length >= 29, `${former.length} former ids`);
    const hidden = new Set(contributes.menus.commandPalette!.filter(e => e.when === 'false').map(e => e.command));
    for (const id of former) {
      assert.ok(contributed.has(id), `${id} is contributed`);
      assert.ok(hidden.has(id), `${id} is hidden from the palette`);
      assert.ok(contributed.has(FORMER_COMMAND_IDS[id]!), `${id} runs ${FORMER_COMMAND_IDS[id]}`);
      assert.ok(!(FORMER_COMMAND_IDS[id]! in FORMER_COMMAND_IDS), `${id} runs a current id`);
    }
  });
  it('the former ids are registered at activation', () => {
    assert.match(
      fs.readFileSync('src/extension.ts', 'utf8'),
      /Object\.entries\(FORMER_COMMAND_IDS\)[\s\S]{0,80}registerCommand\(former/,
    );
  });
  it('menus and keybindings name current ids only', () => {
    const named = [
      ...Object.entries(contributes.menus).flatMap(([menu, entries]) =>
        menu === 'commandPalette' ? [] : entries.map(e => e.command),
      ),
      ...contributes.keybindings.map(k => k.command),
    ];
    assert.deepEqual(
      named.filter(id => id in FORMER_COMMAND_IDS),
      [],
    );
  });
});
