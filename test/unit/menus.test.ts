// The editor title bar as package.json declares it. The `promptwright.activeFile` context outlives the text
// editor it was set for, so a webview panel (the response panel) in front would also show the request file's
// buttons: two Send, two Cancel or two Compare… in one title bar. Each request-file entry leaves panels out.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';

interface MenuEntry {
  command: string;
  when?: string;
}

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};
const title = pkg.contributes.menus['editor/title']!;

describe('the editor title bar (package.json)', () => {
  it("a request file's buttons are not shown over a webview panel", () => {
    const forRequestFiles = title.filter(e => e.when?.includes('promptwright.activeFile == request'));
    assert.ok(forRequestFiles.length >= 3, forRequestFiles.map(e => e.command).join(', '));
    for (const e of forRequestFiles) assert.match(e.when!, /!activeWebviewPanelId\b/, e.command);
  });
  it("the response panel's buttons show only over the response panel", () => {
    const forPanel = title.filter(e => e.when?.includes("activeWebviewPanelId == 'promptwright.response'"));
    assert.ok(forPanel.some(e => e.command === 'promptwright.compare'));
    for (const e of forPanel) assert.doesNotMatch(e.when!, /promptwright\.activeFile/, e.command);
  });
});
