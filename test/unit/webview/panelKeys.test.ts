import { strict as assert } from 'node:assert';
import { isListKey, keyboardHelp, listTarget, progressEveryMs, progressText, wordCount } from '../../../src/webview/panelKeys';

describe('panel keys', () => {
  it('moves through the messages with Up, Down, Home and End, and not past either end', () => {
    assert.equal(listTarget('ArrowUp', 2, 5), 1);
    assert.equal(listTarget('ArrowDown', 2, 5), 3);
    assert.equal(listTarget('Home', 3, 5), 0);
    assert.equal(listTarget('End', 1, 5), 4);
    assert.equal(listTarget('ArrowUp', 0, 5), undefined, 'Up at the first message');
    assert.equal(listTarget('ArrowDown', 4, 5), undefined, 'Down at the last message');
    assert.equal(listTarget('Home', 0, 5), undefined, 'Home at the first message');
    assert.equal(listTarget('End', 4, 5), undefined, 'End at the last message');
    assert.equal(listTarget('ArrowDown', -1, 0), undefined, 'an empty conversation');
  });

  it('from the list itself, Up goes to the newest message and Down to the oldest', () => {
    assert.equal(listTarget('ArrowUp', -1, 5), 4);
    assert.equal(listTarget('ArrowDown', -1, 5), 0);
    assert.equal(listTarget('End', -1, 5), 4);
  });

  it('knows its keys, and the help lists every key the panel handles, once', () => {
    assert.ok(['ArrowUp', 'ArrowDown', 'Home', 'End'].every(isListKey));
    assert.ok(!isListKey('PageDown') && !isListKey('Enter'));
    const keys = keyboardHelp.map((entry) => entry.keys);
    for (const key of ['Enter', 'Escape', 'Ctrl+Up', 'Up / Down', 'Home / End', 'Tab', 'Ctrl+Down', 'Alt+F1'])
      assert.ok(keys.includes(key), `the help lacks ${key}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const entry of keyboardHelp) assert.match(entry.does, /\.$/, `${entry.keys}: a sentence`);
  });

  it('says that Cadenza is answering, then how long and how many words every interval', () => {
    assert.equal(progressText(0, 0), 'Cadenza is answering\u2026');
    assert.equal(progressText(progressEveryMs - 1, 40), 'Cadenza is answering\u2026');
    assert.equal(progressText(progressEveryMs, 1), 'Cadenza is still answering: 15 seconds, 1 word so far.');
    assert.equal(progressText(30_400, 212), 'Cadenza is still answering: 30 seconds, 212 words so far.');
  });

  it('counts words across lines and spaces', () => {
    assert.equal(wordCount(''), 0);
    assert.equal(wordCount('  \n '), 0);
    assert.equal(wordCount('The timer is\n\n**never** cleared.'), 5);
  });
});
