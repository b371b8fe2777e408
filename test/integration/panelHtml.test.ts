import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { webviewHtml } from '../../src/host/views/webviewHtml';
import { panelStrings } from '../../src/shared/panelStrings';
import { panelStringsElementId } from '../../src/shared/panelTable';

/**
 * The panel's HTML as the host builds it in a real extension host: the texts the page draws come in it, translated
 * by `vscode.l10n.t` for the display language (English here, the harness's language), in a JSON script element that
 * carries the page's nonce, and the page says which language it is in.
 */
suite('Panel HTML: the texts in the display language', () => {
  let panel: vscode.WebviewPanel | undefined;
  suiteTeardown(() => panel?.dispose());

  test('the page carries every text of the catalogue, in the display language, with the nonce, and says its language', () => {
    const extension = vscode.extensions.getExtension('cadenza.cadenza');
    assert.ok(extension, 'the extension under test is not found');
    panel = vscode.window.createWebviewPanel('cadenza.test.panelHtml', 'Panel HTML', vscode.ViewColumn.One, { enableScripts: true });
    const html = webviewHtml(panel.webview, extension.extensionUri, 'Cadenza');
    assert.match(html, new RegExp(`<html lang="${vscode.env.language}">`));
    const element = new RegExp(`<script type="application/json" id="${panelStringsElementId}" nonce="([^"]+)">([^<]*)</script>`).exec(html);
    assert.ok(element, 'no JSON script element with the texts');
    const [, nonce, json] = element;
    assert.ok(html.includes(`script-src 'nonce-${nonce}'`), 'the texts do not carry the page nonce');
    const table = JSON.parse(json ?? '') as Record<string, unknown>;
    assert.deepEqual(Object.keys(table).sort(), Object.keys(panelStrings).sort());
    // The harness runs VS Code in English: each text is the catalogue's, placeholders left for the page to fill.
    assert.equal(vscode.env.language, 'en');
    assert.deepEqual(table, { ...panelStrings });
    assert.ok(html.indexOf(panelStringsElementId) < html.indexOf('webview.js'), 'the texts come after the script that reads them');
  });
});
