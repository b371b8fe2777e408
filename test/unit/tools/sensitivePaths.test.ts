// What "allow edits for this conversation" covers: ordinary source and text files only. Every path below
// makes code run, or steers the tools or later conversations, and must be asked each time with a reason
// the card shows; the ordinary ones must not be.
import { strict as assert } from 'node:assert';
import { changeTools } from '../../../src/core/tools/changeTools';
import { sensitivePathCaution, sensitivePathReason, sensitiveRuleIds } from '../../../src/core/tools/sensitivePaths';
import { cautionIds } from '../../../src/shared/views';
import { cautionExamples } from './cautionExamples';
import { ToolSession, type ChangeTool, type ToolContext } from '../../../src/core/tools/toolTypes';
import { MemoryPort } from './memoryPort';

function context(): ToolContext {
  return { signal: new AbortController().signal, session: new ToolSession() };
}

function changeTool(port: MemoryPort, name: string): ChangeTool {
  const found = changeTools(port, { terminalTimeoutSeconds: 30 }).find((tool) => tool.definition.name === name);
  assert.ok(found, name);
  return found;
}

async function cautionOfCreate(port: MemoryPort, path: string): Promise<string | undefined> {
  const prepared = await changeTool(port, 'create_file').prepare({ path, content: 'x\n' }, context());
  return prepared.preview.kind === 'create' ? prepared.preview.caution : 'not a create';
}

/** Each path of issue #34's finding, with what its reason must say. */
const alwaysAsked: readonly (readonly [string, RegExp])[] = [
  ['eslint.config.mjs', /configuration.*load/i],
  ['.venv/lib/python3.12/site-packages/x.pth', /every (interpreter|python) start/i],
  ['node_modules/x/index.js', /installed package/i],
  ['AGENTS.md', /instructions.*every later conversation/i],
  ['.cadenza/instructions.md', /instructions.*every later conversation/i],
  ['.github/workflows/ci.yml', /CI.*secrets/],
  ['.eslintrc.js', /configuration.*load/i],
  ['prettier.config.js', /configuration.*load/i],
  ['jest.config.js', /configuration.*load/i],
  ['vite.config.ts', /configuration.*load/i],
  ['babel.config.js', /configuration.*load/i],
  ['sitecustomize.py', /every (interpreter|python) start/i],
  ['.github/copilot-instructions.md', /instructions.*every later conversation/i],
  ['.cursorrules', /instructions.*every later conversation/i],
  ['.clinerules', /instructions.*every later conversation/i],
  ['.mise.toml', /on their own/],
  ['.tool-versions', /on their own/],
  ['Dockerfile', /container/],
  ['docker-compose.yml', /container/],
  ['.gitlab-ci.yml', /CI.*secrets/],
  ['Jenkinsfile', /CI.*secrets/],
  ['.idea/workspace.xml', /\.idea.*starts with a dot/],
  ['node_modules/.bin/tsc', /installed package/i],
  ['.yarn/releases/yarn-4.1.0.js', /wrapper/],
  ['.pnpmfile.cjs', /wrapper|hook/],
  ['gradlew', /wrapper/],
  ['mvnw', /wrapper/],
  ['.mvn/wrapper/maven-wrapper.properties', /wrapper/],
];

describe('agent tools: what the allowance covers', () => {
  it('every file of the finding is always asked, and its reason says why', () => {
    const wrong = alwaysAsked
      .filter(([path, why]) => !why.test(sensitivePathReason(path) ?? ''))
      .map(([path]) => `${path}: ${sensitivePathReason(path) ?? 'no reason'}`);
    assert.deepEqual(wrong, []);
  });

  it('names the rest of each kind too: nested instructions, installed packages, virtual environments, rc and config scripts, CI, containers, wrappers', () => {
    const more = [
      'src/AGENTS.md',
      'app/.cadenza/instructions.md',
      'vendor/github.com/x/y.go',
      'lib/python3.12/site-packages/x.py',
      'env/lib/python3.12/site-packages/x.py',
      'venv/bin/activate',
      'usercustomize.py',
      'src/x.pth',
      'bower_components/x/x.js',
      '.prettierrc',
      '.babelrc.cjs',
      'webpack.config.babel.js',
      'tailwind.config.ts',
      '.circleci/config.yml',
      'azure-pipelines.yml',
      'compose.yaml',
      'Containerfile',
      'api.Dockerfile',
      'Dockerfile.dev',
      'gradlew.bat',
      'mvnw.cmd',
      'gradle/wrapper/gradle-wrapper.properties',
      'Vagrantfile',
      'Procfile',
      'mise.toml',
      '.env.local',
      'packages/web/.storybook/main.ts',
    ];
    assert.deepEqual(
      more.filter((path) => sensitivePathReason(path) === undefined),
      [],
    );
  });

  it('ordinary source and text files are covered, with no reason', () => {
    const ordinary = [
      'src/app.ts',
      'docs/guide.md',
      'lib/util.py',
      'README.md',
      'src/config.ts',
      'src/environment.ts',
      'src/rc.ts',
      'docs/instructions.md',
      'src/vendors.ts',
      'test/support/fixtures/data.json',
      'src/profile.py',
      'docs/docker.md',
    ];
    assert.deepEqual(
      ordinary.filter((path) => sensitivePathReason(path) !== undefined),
      [],
    );
  });

  it('judges a path as Windows reads it: trailing dots and spaces, a :stream suffix, any case', () => {
    const windows = [
      'AGENTS.md.',
      'agents.md ',
      'AGENTS.md:zone',
      'ESLint.Config.MJS',
      'gradlew.',
      'DOCKERFILE',
      'node_modules./x/index.js',
      '.github ./workflows/ci.yml',
      'src/x.pth:s',
    ];
    assert.deepEqual(
      windows.filter((path) => sensitivePathReason(path) === undefined),
      [],
    );
  });

  it('create_file of a git-ignored path, or of a file inside a folder holding pyvenv.cfg, carries a caution that says so', async () => {
    const port = new MemoryPort({ 'pyenv/pyvenv.cfg': 'home = /usr/bin\n', 'src/a.ts': 'x\n' });
    port.ignored.add('scratch/notes.md');
    assert.match((await cautionOfCreate(port, 'scratch/notes.md')) ?? '', /ignored/);
    assert.match((await cautionOfCreate(port, 'pyenv/bin/activate')) ?? '', /virtual environment/);
    assert.equal(await cautionOfCreate(port, 'src/b.ts'), undefined);
    assert.equal(await cautionOfCreate(port, 'scratch2/notes.md'), undefined);
  });

  it('every reason comes with an id of its own (and the values its text uses), beside the same English text', () => {
    assert.deepEqual([...new Set(sensitiveRuleIds)], sensitiveRuleIds, 'two rules share an id');
    assert.deepEqual([...sensitiveRuleIds, 'virtualEnv', 'ignored'].sort(), [...cautionIds].sort());
    const wrong = cautionIds.flatMap((id) => {
      const [path, facts] = cautionExamples[id];
      const caution = sensitivePathCaution(path, facts);
      const text = sensitivePathReason(path, facts);
      return caution?.rule.id === id && text !== undefined && caution.text === text ? [] : [`${id}: ${path} gives ${JSON.stringify(caution)}`];
    });
    assert.deepEqual(wrong, []);
    assert.deepEqual(sensitivePathCaution('.idea/workspace.xml')?.rule, { id: 'dotName', values: { name: '.idea' } });
    assert.equal(sensitivePathCaution('src/app.ts'), undefined);
  });
});
