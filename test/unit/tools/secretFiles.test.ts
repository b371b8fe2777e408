// Secret-looking file names, as read_file, the index and completions judge them (one list), and
// read_file's question for a link that leads to an ignored secret.
import { strict as assert } from 'node:assert';
import { isSecretPath } from '../../../src/core/index/secretFiles';
import { readTools } from '../../../src/core/tools/readTools';
import { secretFileReason } from '../../../src/core/tools/sensitivePaths';
import { ToolSession, type ReadTool } from '../../../src/core/tools/toolTypes';
import { MemoryPort } from './memoryPort';

const secrets = [
  '.env',
  '.env::$DATA',
  '.env.',
  'app/.env:stream',
  'keys/prod-service-account.json',
  'gcp_service_account.json',
  'My-Service-Account-Key.JSON',
  'infra/terraform.tfstate',
  'infra/terraform.tfstate.backup',
  'prod.tfstate.1700000000.backup',
  '.vault-token',
  'certs/deploy.pem',
  'id_ed25519',
];
const ordinary = ['src/service-account.ts', 'docs/service-accounts.md', 'docs/terraform.md', 'src/tfstate.go', 'src/env.ts', 'README.md'];
/** Not worth a question before reading (read_file), yet never indexed or completed. */
const publicOrExample = ['.env.example', 'id_rsa.pub'];

describe('secret file names', () => {
  it("read_file's rule knows them, streams and trailing dots stripped; public keys, examples and code are not secrets", () => {
    for (const path of secrets) assert.ok(secretFileReason(path), path);
    for (const path of [...ordinary, ...publicOrExample]) assert.equal(secretFileReason(path), undefined, path);
  });

  it('the index and completions use the same list, public keys and examples included', () => {
    for (const path of [...secrets, ...publicOrExample]) assert.equal(isSecretPath(path), true, path);
    for (const path of ordinary) assert.equal(isSecretPath(path), false, path);
  });
});

describe('read_file and links to secrets', () => {
  const context = { signal: new AbortController().signal, session: new ToolSession() };
  const readFile = (port: MemoryPort): ReadTool => {
    const found = readTools(port).find((tool) => tool.definition.name === 'read_file');
    assert.ok(found);
    return found;
  };

  it('asks before reading a link whose target is a git-ignored secret, and before a stream of one', async () => {
    const port = new MemoryPort({
      '.env': 'API_TOKEN=zebra\n',
      'config/app.txt': 'API_TOKEN=zebra\n',
      'docs/readme.md': '# hi\n',
      'config/readme.txt': '# hi\n',
    });
    port.ignored.add('.env');
    port.links.set('config/app.txt', '.env');
    port.links.set('config/readme.txt', 'docs/readme.md');
    const asked = await readFile(port).confirm?.({ path: 'config/app.txt' }, context);
    assert.equal(asked?.kind, 'read');
    assert.equal(asked?.kind === 'read' ? asked.path : '', 'config/app.txt');
    assert.match(asked?.kind === 'read' ? asked.reason : '', /\.env/);
    const stream = await readFile(port).confirm?.({ path: '.env::$DATA' }, context);
    assert.equal(stream?.kind, 'read', JSON.stringify(stream));
    assert.equal(await readFile(port).confirm?.({ path: 'config/readme.txt' }, context), undefined, 'an ordinary link is read without a question');
  });
});
