// The @terminal mention's text: a command's raw output (as VS Code's shell integration hands it over,
// escape sequences and all, in chunks that split anywhere) turned into what the terminal shows.
import assert from 'node:assert/strict';
import { TerminalText } from '../../../../src/core/chat/context/terminalText';

const ESC = '\u001b';
const BEL = '\u0007';

/** The text of `chunks` written one after the other. */
function shown(chunks: readonly string[], maxChars = 32_000): TerminalText {
  const text = new TerminalText(maxChars);
  for (const chunk of chunks) text.write(chunk);
  return text;
}

describe('chat/context/terminalText', () => {
  it('drops colours, as `ls --color=always` and `grep --color=always` write them', () => {
    const ls = `${ESC}[0m${ESC}[01;34msrc${ESC}[0m  ${ESC}[01;32mbuild.sh${ESC}[0m  README.md\r\n`;
    const grep = `${ESC}[35m${ESC}[Ksrc/a.ts${ESC}[m${ESC}[K${ESC}[36m${ESC}[K:${ESC}[m${ESC}[Kconst ${ESC}[01;31m${ESC}[Kx${ESC}[m${ESC}[K = 1;\r\n`;
    assert.equal(shown([ls, grep]).text, 'src  build.sh  README.md\nsrc/a.ts:const x = 1;');
  });

  it("drops VS Code's shell-integration marks (OSC 633, ended by BEL or ST) and window titles", () => {
    const output = [
      `${ESC}]633;C${BEL}`,
      `${ESC}]0;user@host: ~/project${BEL}`,
      'hello-cadenza\r\n',
      `${ESC}]633;D;0${BEL}${ESC}]633;P;Cwd=/home/user/project${ESC}\\`,
      `${ESC}]633;A${BEL}`,
    ];
    const text = shown(output);
    assert.equal(text.text, 'hello-cadenza');
    assert.equal(text.cut, false);
  });

  it('shows a line redrawn with \\r (a progress bar) as its last state, over what it wrote before', () => {
    const curl = 'Downloading  10%\rDownloading  55%\rDownloading 100%\r\ndone\r\n';
    assert.equal(shown([curl]).text, 'Downloading 100%\ndone');
    // A shorter redraw leaves the end of the longer one, as the terminal does.
    assert.equal(shown(['abcdef\rXY\n']).text, 'XYcdef');
    // git's progress: \r then the new state; erase to the end of the line (ESC [ K) clears the rest.
    const git = 'Receiving objects:  40% (2/5), 1.20 MiB | 2.00 MiB/s\rReceiving objects: 100% (5/5)\u001b[K, done.\n';
    assert.equal(shown([git]).text, 'Receiving objects: 100% (5/5), done.');
  });

  it('follows the cursor moves within a line that spinners use, and ignores cursor show/hide', () => {
    const npm = `${ESC}[?25l⠙${ESC}[1G${ESC}[0K⠹${ESC}[1G${ESC}[0K${ESC}[1G${ESC}[0Kadded 1 package in 2s\n${ESC}[?25h`;
    assert.equal(shown([npm]).text, 'added 1 package in 2s');
    assert.equal(shown([`ab${ESC}[3Cz${ESC}[2Dy\n`]).text, 'ab  yz');
    assert.equal(shown(['abc\b\bX\n']).text, 'aXc');
    assert.equal(shown([`old text${ESC}[2K\rnew\n`]).text, 'new');
  });

  it('joins escape sequences and \\r\\n that a chunk boundary split', () => {
    const text = shown([`${ESC}[3`, `1merror${ESC}`, `[0m: it broke\r`, `\n${ESC}]633;E;echo hel`, `lo${BEL}`, 'next\r', '\n']);
    assert.equal(text.text, 'error: it broke\nnext');
  });

  it('keeps the end of a long output, by whole lines, and says it cut', () => {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${index}`);
    const text = shown([lines.join('\r\n') + '\r\n'], 50);
    assert.ok(text.text.length <= 50, `${text.text.length} characters`);
    assert.ok(text.text.endsWith('line 38\nline 39'), text.text);
    assert.ok(text.text.startsWith('line '), text.text);
    assert.equal(text.cut, true);
    const endless = shown(['x'.repeat(500) + 'END'], 50);
    assert.ok(endless.text.endsWith('END') && endless.text.length <= 100, `${endless.text.length}`);
    assert.equal(endless.cut, true);
  });
});
