import { strict as assert } from 'node:assert';
import { formatCost } from '../../../src/shared/cost';
import { formatCompact, formatDecimal, formatInteger, formatPrice, numberLocale } from '../../../src/shared/numbers';

// Intl puts a no-break space (U+00A0) or a narrow one (U+202F) between a German number and its unit.
const spaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');

describe('numbers in the panel language', () => {
  it('writes whole numbers with the language grouping', () => {
    assert.equal(formatInteger(1_234_567.4, 'en'), '1,234,567');
    assert.equal(formatInteger(1_234_567.4, 'de'), '1.234.567');
  });

  it('writes decimals with the language decimal sign, trailing zeros left out', () => {
    assert.equal(formatDecimal(2.4, 1, 'en'), '2.4');
    assert.equal(formatDecimal(2.4, 1, 'de'), '2,4');
    assert.equal(formatDecimal(41.25, 1, 'de'), '41,3');
    assert.equal(formatDecimal(3, 1, 'de'), '3');
  });

  it('writes token counts short the way the language abbreviates them', () => {
    assert.equal(formatCompact(950, 'en'), '950');
    assert.equal(formatCompact(12_340, 'en'), '12.3K');
    assert.equal(formatCompact(131_072, 'en'), '131K');
    assert.equal(formatCompact(1_048_576, 'en'), '1.05M');
    // German does not shorten thousands: it groups them; millions are "Mio.".
    assert.equal(formatCompact(12_340, 'de'), '12.340');
    assert.equal(spaces(formatCompact(1_048_576, 'de')), '1,05 Mio.');
    assert.equal(spaces(formatCompact(4096, 'fr')), '4,1 k');
  });

  it('writes costs in US dollars in the language', () => {
    assert.equal(formatCost(0, 'full', 'en'), '$0');
    assert.equal(formatCost(0.00005, 'full', 'en'), '< $0.0001');
    assert.equal(formatCost(0.00112, 'full', 'en'), '$0.0011');
    assert.equal(formatCost(0.5, 'full', 'en'), '$0.500');
    assert.equal(formatCost(12.345, 'full', 'en'), '$12.35');
    assert.equal(formatCost(0.00005, 'short', 'en'), '<$0.0001');
    assert.equal(spaces(formatCost(0, 'full', 'de')), '0 $');
    assert.equal(spaces(formatCost(0.00112, 'full', 'de')), '0,0011 $');
    assert.equal(spaces(formatCost(0.00005, 'full', 'de')), '< 0,0001 $');
    assert.equal(spaces(formatCost(1234.5, 'full', 'de')), '1.234,50 $');
    assert.equal(formatPrice(0.6, 'en'), '$0.6');
    assert.equal(spaces(formatPrice(0.6, 'de')), '0,6 $');
  });

  it('takes VS Code language ids and falls back to English for one Intl does not know', () => {
    assert.equal(numberLocale('pt-br'), 'pt-BR');
    assert.equal(numberLocale('zh-cn'), 'zh-CN');
    assert.equal(numberLocale('de'), 'de');
    assert.equal(numberLocale(''), 'en');
    assert.equal(numberLocale('not a language!'), 'en');
    assert.equal(formatInteger(1234, numberLocale('not a language!')), '1,234');
  });
});
