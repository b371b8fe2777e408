import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { jsonForScript, localizePanelStrings, panelStringsElementId } from '../../shared/panelTable';
import { readAnnounceProgress } from '../settings';

/**
 * The panel's HTML: strict CSP (`default-src 'none'`), scripts only by nonce from the extension's
 * own dist/, styles from dist/ and media/, images only as data: or webview resources. No remote content.
 * The page carries the settings the panel reads once, at its start (progress announcements), as data attributes:
 * they need no message of the protocol, and a change applies the next time the panel is created. The panel's texts
 * come the same way, translated into VS Code's display language (`vscode.l10n.t`, keyed by the English text of
 * src/shared/panelStrings.ts), as a JSON script element the page reads before it draws anything; the page's `lang`
 * (VS Code's display language) is the language the panel writes its numbers in (src/webview/l10n.ts).
 */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const strings = localizePanelStrings((english) => vscode.l10n.t(english));
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${title}</title>
</head>
<body>
<main id="app"${readAnnounceProgress() ? ' data-announce-progress="true"' : ''}></main>
<script type="application/json" id="${panelStringsElementId}" nonce="${nonce}">${jsonForScript(strings)}</script>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
