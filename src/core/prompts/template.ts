// The file `Cadenza: New Prompt File` starts from.

/** A new prompt file named `name`: a front matter skeleton and a body whose comment shows the variables. */
export function promptFileTemplate(name: string): string {
  return `---
description: 'What /${name} does, in one line (shown next to /${name})'
mode: ask
---
<!--
Run this prompt with /${name} in Cadenza's chat (or @cadenza /${name} in VS Code's chat); whatever you type
after /${name} is added at the end. Comments like this one are not sent. Variables filled in when it runs:
  \${selection}         the text selected in the editor (the prompt does not run without one)
  \${file}              the active file's path; \${fileBasename} its name, \${fileDirname} its folder
  \${workspaceFolder}   the workspace folder's path
  \${input:topic}       asks you for a value; \${input:topic:a hint} shows a hint in the question
mode: ask (answer), edit (change files) or agent (plan and use tools); tools: [name, ...] lists the tools it may use.
-->
Describe the task for /${name} here.
`;
}
