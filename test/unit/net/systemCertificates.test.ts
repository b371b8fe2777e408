import { strict as assert } from 'node:assert';
import { loadSystemCertificates, splitPemBundle } from '../../../src/core/net/systemCertificates';

const pem = (body: string): string => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;

describe('system certificates', () => {
  it('splits a PEM bundle into certificates and ignores the text between them', () => {
    assert.deepEqual(splitPemBundle(`# comment\n${pem('AAA')}\nnoise\n${pem('BBB')}\n`), [pem('AAA'), pem('BBB')]);
    assert.deepEqual(splitPemBundle('no certificates here'), []);
  });

  it('reads the OS store of this machine', () => {
    const certificates = loadSystemCertificates();
    assert.ok(certificates.length > 10, `expected the OS CA bundle, got ${certificates.length} certificates`);
    assert.ok(certificates.every((certificate) => certificate.startsWith('-----BEGIN CERTIFICATE-----')));
  });

  it('returns nothing on a platform whose store it cannot read, rather than failing', () => {
    const none = loadSystemCertificates('aix', () => {
      throw new Error('no such file');
    });
    assert.ok(Array.isArray(none));
  });
});
