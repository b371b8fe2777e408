import { strict as assert } from 'node:assert';
import { isLoopbackTarget, teamPoolConfig, TeamConnectionError } from '../../../../src/core/index/pg/pgConnect';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----';
const OTHER = '-----BEGIN CERTIFICATE-----\nMIIBother\n-----END CERTIFICATE-----';

describe('team index connection settings', () => {
  it('sslmode=verify-full verifies the chain and the host against Node\'s roots, the OS store, NODE_EXTRA_CA_CERTS and sslrootcert', () => {
    const files: Record<string, string> = { '/etc/extra.pem': OTHER, '/team/ca.pem': PEM };
    const { config, tls, target } = teamPoolConfig('postgresql://reader:s3cret@db.example.com:6543/idx?sslmode=verify-full&sslrootcert=/team/ca.pem', {
      systemCertificates: ['-----BEGIN CERTIFICATE-----\nMIIBsystem\n-----END CERTIFICATE-----'],
      readFile: (file) => files[file] ?? '',
      env: { NODE_EXTRA_CA_CERTS: '/etc/extra.pem' },
    });
    assert.equal(tls, 'verify-full');
    assert.equal(target, 'db.example.com:6543/idx');
    const ssl = config.ssl as { ca: string[]; rejectUnauthorized: boolean; checkServerIdentity?: unknown };
    assert.equal(ssl.rejectUnauthorized, true);
    assert.equal(ssl.checkServerIdentity, undefined, 'the host name is checked');
    assert.ok(ssl.ca.includes(PEM) && ssl.ca.includes(OTHER) && ssl.ca.some((c) => c.includes('MIIBsystem')));
    assert.ok(ssl.ca.length > 3, 'Node\'s own roots are kept');
    // The pg client must not re-derive TLS from the string (it would verify against Node's roots only).
    assert.doesNotMatch(String(config.connectionString), /ssl/);
    assert.match(String(config.options), /default_transaction_read_only=on/);
  });

  it('verify-ca checks the chain but not the host name; require encrypts without verifying; no sslmode is no TLS', () => {
    const ca = teamPoolConfig('postgres://u@h/db?sslmode=verify-ca');
    assert.equal(ca.tls, 'verify-ca');
    assert.equal(typeof (ca.config.ssl as { checkServerIdentity?: unknown }).checkServerIdentity, 'function');
    const required = teamPoolConfig('postgres://u@h/db?sslmode=require');
    assert.equal(required.tls, 'unverified');
    assert.equal((required.config.ssl as { rejectUnauthorized: boolean }).rejectUnauthorized, false);
    const withRoot = teamPoolConfig('postgres://u@h/db?sslmode=require&sslrootcert=/ca.pem', { readFile: () => PEM });
    assert.equal(withRoot.tls, 'verify-ca', 'require with a root certificate verifies, as libpq does');
    const plain = teamPoolConfig('postgres://u@h/db');
    assert.equal(plain.tls, 'none');
    assert.equal(plain.config.ssl, false);
  });

  it('the target never carries the user or password, and bad strings are refused with what to write', () => {
    assert.equal(teamPoolConfig('postgresql://alice:pw@10.0.0.5/db').target, '10.0.0.5:5432/db');
    assert.throws(() => teamPoolConfig('host=db user=x'), (e: unknown) => TeamConnectionError.is(e) && /postgresql:\/\//.test(e.message));
    assert.throws(() => teamPoolConfig('mysql://db/x'), TeamConnectionError);
    assert.throws(() => teamPoolConfig('postgres://db/x?sslmode=sometimes'), /Unknown sslmode/);
    assert.equal(isLoopbackTarget('127.0.0.1:5432/x'), true);
    assert.equal(isLoopbackTarget('localhost:5432/x'), true);
    assert.equal(isLoopbackTarget('db.example.com:5432/x'), false);
  });
});
