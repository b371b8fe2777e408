// The tasks of bench/agent/agentTasks.ts on the fixture bench/fixtures/agent-repo (a tiny Python shop library
// with its own test runner, `python3 run_tests.py`). Each task says what success is and is checked
// mechanically: questions by facts the answer must contain, edits by running the fixture's tests (with a
// check written only after the agent is done, so it cannot be read), renames by the tests and a search for
// the old name, and the questions that need no tool by the answer and by no call at all.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What kind of work a task is (the report groups by it). */
export type TaskKind = 'question' | 'edit' | 'twoFiles' | 'create' | 'noTool';

/** One task: the user's message, what success is, and how it is checked. */
export interface AgentTask {
  readonly id: string;
  readonly kind: TaskKind;
  readonly prompt: string;
  /** What success is, in words (printed beside a failure). */
  readonly success: string;
  /** Changes the copy of the fixture before the run (a bug to fix). */
  readonly setup?: (dir: string) => void;
  /** Facts the answer must contain, every one. */
  readonly answer?: readonly RegExp[];
  /** Checks the folder after the run: undefined when it is right, else what is wrong. */
  readonly files?: (dir: string) => string | undefined;
}

function run(dir: string, command: string, args: readonly string[]): { code: number | null; output: string } {
  const result = spawnSync(command, args, { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

/** The fixture's tests pass (after `hidden` test files are written, when given). */
function testsPass(hidden: Readonly<Record<string, string>> = {}): (dir: string) => string | undefined {
  return (dir) => {
    for (const [name, text] of Object.entries(hidden)) writeFileSync(join(dir, 'tests', name), text);
    const { code, output } = run(dir, 'python3', ['run_tests.py']);
    const failures = output
      .split('\n')
      .filter((line) => line.startsWith('FAIL '))
      .map((line) => line.slice(5));
    return code === 0 ? undefined : `tests fail: ${failures.join(', ') || output.trim().split('\n').at(-1) || `exit ${code}`}`.slice(0, 300);
  };
}

/** Python files of the copy (shop/ and tests/) that still contain `text`. */
function filesWith(dir: string, text: string): string[] {
  return ['shop', 'tests']
    .flatMap((folder) =>
      readdirSync(join(dir, folder))
        .filter((name) => name.endsWith('.py'))
        .map((name) => `${folder}/${name}`),
    )
    .filter((path) => readFileSync(join(dir, path), 'utf8').includes(text));
}

function all(...checks: ((dir: string) => string | undefined)[]): (dir: string) => string | undefined {
  return (dir) => checks.map((check) => check(dir)).find((problem) => problem !== undefined);
}

function replaceIn(path: string, from: string, to: string): (dir: string) => void {
  return (dir) => {
    const file = join(dir, path);
    const text = readFileSync(file, 'utf8');
    if (!text.includes(from)) throw new Error(`setup: ${from} is not in ${path}`);
    writeFileSync(file, text.replace(from, to));
  };
}

/** The task set: 8 questions, 7 single-file edits, 3 find-then-edit across files, 2 new files, 3 with no tool. */
export const agentTasks: readonly AgentTask[] = [
  {
    id: 'q-tax-rate',
    kind: 'question',
    prompt: 'What tax rate does shop/pricing.py apply?',
    success: 'the answer gives 0.2 (20%)',
    answer: [/\b0?\.2\b|\b20 ?%/],
  },
  {
    id: 'q-warehouse',
    kind: 'question',
    prompt: 'What is the name of the default warehouse in this project?',
    success: 'the answer names north-7',
    answer: [/north-7/i],
  },
  { id: 'q-version', kind: 'question', prompt: 'Which version number does this project declare?', success: 'the answer gives 3.4.1', answer: [/3\.4\.1/] },
  { id: 'q-max-items', kind: 'question', prompt: 'How many items can an Inventory hold at most?', success: 'the answer gives 500', answer: [/\b500\b/] },
  {
    id: 'q-format-function',
    kind: 'question',
    prompt: 'Which function turns cents into the text shown to people, and in which file is it?',
    success: 'the answer names format_price and formatting.py',
    answer: [/format_price/, /formatting\.py/],
  },
  { id: 'q-restock', kind: 'question', prompt: 'Below what quantity does an item need restocking?', success: 'the answer gives 12', answer: [/\b12\b/] },
  {
    id: 'q-run-tests',
    kind: 'question',
    prompt: 'How do I run the tests of this project?',
    success: 'the answer gives python3 run_tests.py',
    answer: [/run_tests\.py/],
  },
  {
    id: 'q-inventory-file',
    kind: 'question',
    prompt: 'In which file is the Inventory class defined?',
    success: 'the answer names shop/inventory.py',
    answer: [/inventory\.py/],
  },

  {
    id: 'e-fix-discount',
    kind: 'edit',
    prompt: 'The tests fail: discount(200, 25) should be 150. Fix the bug in shop/pricing.py.',
    success: "the fixture's tests pass again",
    setup: replaceIn('shop/pricing.py', 'price_cents * (100 - percent) / 100', 'price_cents * percent / 100'),
    files: testsPass(),
  },
  {
    id: 'e-fix-format',
    kind: 'edit',
    prompt: 'format_price(1234) should return "$12.34" but it does not. Fix it.',
    success: "the fixture's tests pass again",
    setup: replaceIn('shop/formatting.py', 'cents // 100}.{cents % 100:02d}', 'cents // 10}.{cents % 10:02d}'),
    files: testsPass(),
  },
  {
    id: 'e-restock-threshold',
    kind: 'edit',
    prompt: 'Set the restock threshold to 20.',
    success: 'RESTOCK_THRESHOLD is 20 and the tests pass',
    files: testsPass({
      'test_hidden_threshold.py': 'from shop.config import RESTOCK_THRESHOLD\n\n\ndef test_threshold():\n    assert RESTOCK_THRESHOLD == 20\n',
    }),
  },
  {
    id: 'e-version',
    kind: 'edit',
    prompt: 'Bump the project version to 3.5.0.',
    success: 'VERSION is "3.5.0" and the tests pass',
    files: testsPass({ 'test_hidden_version.py': 'from shop.config import VERSION\n\n\ndef test_version():\n    assert VERSION == "3.5.0"\n' }),
  },
  {
    id: 'e-is-empty',
    kind: 'edit',
    prompt: 'Add a method is_empty(self) to the Inventory class that returns True when it holds no items.',
    success: 'Inventory().is_empty() is True, False after add_item, and the tests pass',
    files: testsPass({
      'test_hidden_empty.py':
        'from shop.inventory import Inventory\n\n\ndef test_is_empty():\n    inventory = Inventory()\n    assert inventory.is_empty() is True\n    inventory.add_item("fig")\n    assert inventory.is_empty() is False\n',
    }),
  },
  {
    id: 'e-remove-too-many',
    kind: 'edit',
    prompt: 'Inventory.remove_item should raise ValueError when asked to remove more than is in stock, and leave the stock as it was. Change it.',
    success: 'removing more than held raises ValueError, stock unchanged; the tests pass',
    files: testsPass({
      'test_hidden_remove.py':
        'from shop.inventory import Inventory\n\n\ndef test_remove_too_many():\n    inventory = Inventory()\n    inventory.add_item("fig", 2)\n    try:\n        inventory.remove_item("fig", 3)\n    except ValueError:\n        assert inventory.stock == {"fig": 2}\n        return\n    raise AssertionError("no ValueError")\n',
    }),
  },
  {
    id: 'e-docstring',
    kind: 'edit',
    prompt: 'Add a docstring to format_price in shop/formatting.py saying what it returns.',
    success: 'format_price has a docstring and the tests pass',
    files: testsPass({
      'test_hidden_doc.py': 'from shop.formatting import format_price\n\n\ndef test_doc():\n    assert (format_price.__doc__ or "").strip() != ""\n',
    }),
  },

  {
    id: 'x-rename-function',
    kind: 'twoFiles',
    prompt: 'Rename the function price_with_tax to gross_price everywhere it is used.',
    success: 'no price_with_tax left in shop/ or tests/, gross_price defined, the tests pass',
    files: all(
      (dir) => {
        const left = filesWith(dir, 'price_with_tax');
        return left.length > 0 ? `price_with_tax still in ${left.join(', ')}` : undefined;
      },
      testsPass({ 'test_hidden_gross.py': 'from shop.pricing import gross_price\n\n\ndef test_gross():\n    assert gross_price(100) == 120\n' }),
    ),
  },
  {
    id: 'x-rename-constant',
    kind: 'twoFiles',
    prompt: 'Rename the constant CURRENCY_SYMBOL to CURRENCY_SIGN everywhere.',
    success: 'no CURRENCY_SYMBOL left, CURRENCY_SIGN in config, the tests pass',
    files: all(
      (dir) => {
        const left = filesWith(dir, 'CURRENCY_SYMBOL');
        return left.length > 0 ? `CURRENCY_SYMBOL still in ${left.join(', ')}` : undefined;
      },
      testsPass({ 'test_hidden_sign.py': 'from shop.config import CURRENCY_SIGN\n\n\ndef test_sign():\n    assert CURRENCY_SIGN == "$"\n' }),
    ),
  },
  {
    id: 'x-use-constant',
    kind: 'twoFiles',
    prompt:
      'The default warehouse name "north-7" is written out in a second place besides shop/config.py. Make that code use DEFAULT_WAREHOUSE from shop/config.py instead.',
    success: '"north-7" only in shop/config.py, the tests pass',
    files: all(
      (dir) => {
        const left = filesWith(dir, 'north-7').filter((path) => path !== 'shop/config.py');
        return left.length > 0 ? `"north-7" still in ${left.join(', ')}` : undefined;
      },
      testsPass({
        'test_hidden_warehouse.py':
          'import shop.config\nfrom shop.inventory import Inventory\n\n\ndef test_warehouse():\n    assert Inventory().warehouse == shop.config.DEFAULT_WAREHOUSE\n',
      }),
    ),
  },

  {
    id: 'c-units',
    kind: 'create',
    prompt: 'Create shop/units.py with a function grams_to_kg(grams) that returns the weight in kilograms.',
    success: 'shop/units.py exists, grams_to_kg(2500) == 2.5, the tests pass',
    files: testsPass({ 'test_hidden_units.py': 'from shop.units import grams_to_kg\n\n\ndef test_units():\n    assert grams_to_kg(2500) == 2.5\n' }),
  },
  {
    id: 'c-config-test',
    kind: 'create',
    prompt: 'Add a test file tests/test_config.py with a test function that checks that VERSION in shop/config.py is "3.4.1".',
    success: 'tests/test_config.py exists with a test_ function, and the tests pass with one more test',
    files: (dir) => {
      const path = join(dir, 'tests', 'test_config.py');
      if (!existsSync(path)) return 'tests/test_config.py was not created';
      if (!/def test_\w*\(/.test(readFileSync(path, 'utf8'))) return 'tests/test_config.py has no test_ function';
      const { code, output } = run(dir, 'python3', ['run_tests.py']);
      if (code !== 0) return `tests fail: ${output.trim().split('\n').slice(-2).join(' | ')}`;
      return /^(9|[1-9]\d+) passed/m.test(output) ? undefined : `no new test ran: ${output.trim().split('\n').at(-1) ?? ''}`;
    },
  },

  { id: 'n-multiply', kind: 'noTool', prompt: 'What is 17 * 23?', success: 'the answer gives 391 and no tool is called', answer: [/\b391\b/] },
  {
    id: 'n-python-keyword',
    kind: 'noTool',
    prompt: 'Which Python keyword starts the definition of a function?',
    success: 'the answer gives def and no tool is called',
    answer: [/\bdef\b/],
  },
  {
    id: 'n-http-404',
    kind: 'noTool',
    prompt: 'What does the HTTP status code 404 mean?',
    success: 'the answer says not found and no tool is called',
    answer: [/not found/i],
  },
];
