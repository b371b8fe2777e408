// One path for each reason a file is always asked (core/tools/sensitivePaths.ts), with what the host knows of it.
import type { PathFacts } from '../../../src/core/tools/sensitivePaths';
import type { CautionId } from '../../../src/shared/views';

export const cautionExamples: Readonly<Record<CautionId, readonly [string, PathFacts?]>> = {
  git: ['.git/config'],
  gitSettings: ['.gitmodules'],
  gitHooks: ['.husky/pre-commit'],
  vscode: ['.vscode/tasks.json'],
  codeWorkspace: ['team.code-workspace'],
  devContainer: ['.devcontainer/devcontainer.json'],
  instructions: ['AGENTS.md'],
  ci: ['.github/workflows/ci.yml'],
  container: ['Dockerfile'],
  buildWrapper: ['gradlew'],
  pythonStartup: ['sitecustomize.py'],
  compiledPython: ['src/__pycache__/a.cpython-312.pyc'],
  installedPackages: ['node_modules/x/index.js'],
  packageManifest: ['package.json'],
  buildFile: ['pyproject.toml'],
  toolsOnTheirOwn: ['.editorconfig'],
  toolConfig: ['vite.config.ts'],
  toolFile: ['Vagrantfile'],
  dotName: ['.idea/workspace.xml'],
  virtualEnv: ['pyenv/bin/activate', { inVirtualEnv: true }],
  ignored: ['scratch/notes.md', { ignored: true }],
};
