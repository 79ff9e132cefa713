import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.js';
import { LOGO_MAX_BYTES } from '../../src/config/brand-files.js';
import { brandingCspSources } from '../../src/config/branding-csp.js';
import { consoleBrandSources } from '../../src/http/admin/console/brand.js';
import { SECRET, rejects } from '../config/support.js';
import { CSS, PNG, SVG, brandFolder } from './fixtures.js';

// BRANDING_* read at start: files checked by their content, URLs and
// colours validated, each refusal naming the setting.

const file = brandFolder({
  'logo.png': PNG,
  'logo.svg': SVG,
  'style.css': CSS,
  'not-an-image.png': 'hello, I am text',
  'page.svg': '<!doctype html><html><body><svg></svg></body></html>',
  'jpeg-named.png': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  'huge.png': Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]),
  'binary.css': Buffer.from([0xff, 0xfe, 0x00, 0x41]),
  'brand.json': JSON.stringify({ logo_file: 'logo.svg', primary_color: '#aa0000', stylesheet_url: 'https://cdn.example.com/brand.css' }),
  'typo.json': JSON.stringify({ primary_colour: '#aa0000' }),
});
const PRODUCTION = { NODE_ENV: 'production', SECRET_KEY: SECRET, FRONTEND_URL: 'https://app.example', SMTP_URL: 'smtp://mail.example:25' };

describe('branding settings', () => {
  it('serves a logo file at the public URL, versioned by its content', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, BRANDING_LOGO_FILE: file('logo.png'), BRANDING_STYLESHEET_FILE: file('style.css'), PUBLIC_URL: 'https://auth.example.com/' });
    assert.equal(config.publicUrl, 'https://auth.example.com');
    assert.equal(config.branding.logoFile?.contentType, 'image/png');
    assert.match(config.branding.logoUrl!, /^https:\/\/auth\.example\.com\/_service\/brand\/logo\.png\?v=[\w-]{16}$/);
    assert.match(config.branding.stylesheetUrl!, /^https:\/\/auth\.example\.com\/_service\/brand\/style\.css\?v=[\w-]{16}$/);
  });

  it('takes the type from the content, and the issuer when PUBLIC_URL is unset', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, BRANDING_LOGO_FILE: file('logo.svg'), IDP_OIDC_ISSUER: 'https://id.example.com' });
    assert.equal(config.branding.logoFile?.contentType, 'image/svg+xml');
    assert.match(config.branding.logoUrl!, /^https:\/\/id\.example\.com\/_service\/brand\/logo\.svg\?v=/);
    assert.ok(config.warnings.some((w) => w.startsWith('BRANDING_LOGO_FILE') && /Gmail/.test(w)), 'an SVG logo is noted: many mail clients show none');
    // Without a public URL the stylesheet is a path: pages of this server find it on any host name.
    const bare = loadConfig({ SECRET_KEY: SECRET, BRANDING_STYLESHEET_FILE: file('style.css') });
    assert.match(bare.branding.stylesheetUrl!, /^\/_service\/brand\/style\.css\?v=/);
  });

  it('refuses a logo that is no image, an HTML page with an svg inside, a name that lies, a file too big or missing', () => {
    rejects({ BRANDING_LOGO_FILE: file('not-an-image.png') }, 'BRANDING_LOGO_FILE');
    rejects({ BRANDING_LOGO_FILE: file('page.svg') }, 'BRANDING_LOGO_FILE');
    rejects({ BRANDING_LOGO_FILE: file('jpeg-named.png') }, 'BRANDING_LOGO_FILE');
    rejects({ BRANDING_LOGO_FILE: file('huge.png') }, 'BRANDING_LOGO_FILE');
    rejects({ BRANDING_LOGO_FILE: file('absent.png') }, 'BRANDING_LOGO_FILE');
    rejects({ BRANDING_STYLESHEET_FILE: file('binary.css') }, 'BRANDING_STYLESHEET_FILE');
    rejects({ BRANDING_LOGO_FILE: file('logo.png'), BRANDING_LOGO_URL: 'https://cdn.example.com/logo.png' }, 'BRANDING_LOGO_FILE');
  });

  it('refuses a bad colour', () => {
    rejects({ BRANDING_PRIMARY_COLOR: 'blue' }, 'BRANDING_PRIMARY_COLOR');
    rejects({ BRANDING_PRIMARY_TEXT_COLOR: '#12345' }, 'BRANDING_PRIMARY_TEXT_COLOR');
    rejects({ BRANDING_PRIMARY_COLOR: '#fff;}body{' }, 'BRANDING_PRIMARY_COLOR');
  });

  it('asks for https and a public URL in production', () => {
    rejects({ ...PRODUCTION, BRANDING_LOGO_FILE: file('logo.png') }, 'PUBLIC_URL');
    rejects({ ...PRODUCTION, BRANDING_LOGO_URL: 'http://cdn.example.com/logo.png' }, 'BRANDING_LOGO_URL');
    rejects({ ...PRODUCTION, BRANDING_LOGO_URL: 'javascript:alert(1)' }, 'BRANDING_LOGO_URL');
    rejects({ SECRET_KEY: SECRET, BRANDING_LOGO_URL: '//evil.example/logo.png' }, 'BRANDING_LOGO_URL');
    rejects({ SECRET_KEY: SECRET, BRANDING_STYLESHEET_URL: '/\\evil.example/brand.css' }, 'BRANDING_STYLESHEET_URL');
    rejects({ ...PRODUCTION, PUBLIC_URL: 'http://auth.example.com' }, 'PUBLIC_URL');
    const config = loadConfig({ ...PRODUCTION, PUBLIC_URL: 'https://auth.example.com', BRANDING_LOGO_URL: '/static/logo.png', BRANDING_STYLESHEET_URL: '/static/brand.css' });
    assert.equal(config.branding.logoUrl, 'https://auth.example.com/static/logo.png', 'a mail needs the absolute URL');
    assert.equal(config.branding.stylesheetUrl, '/static/brand.css');
  });

  it('reads BRANDING_FILE, its paths from its own folder, the variables winning', () => {
    const config = loadConfig({ SECRET_KEY: SECRET, BRANDING_FILE: file('brand.json'), BRANDING_PRIMARY_COLOR: '#00aa00', PUBLIC_URL: 'https://auth.example.com' });
    assert.equal(config.branding.logoFile?.name, 'logo.svg');
    assert.equal(config.branding.primaryColor, '#00aa00');
    assert.equal(config.branding.stylesheetUrl, 'https://cdn.example.com/brand.css');
    rejects({ BRANDING_FILE: file('typo.json') }, 'BRANDING_FILE');
    rejects({ BRANDING_FILE: file('absent.json') }, 'BRANDING_FILE');
  });

  it('gives pages the origins of external brand URLs only', () => {
    assert.deepEqual(brandingCspSources({ logoUrl: 'https://cdn.example.com/a/logo.png', stylesheetUrl: 'https://fonts.example.net/brand.css' }), {
      img: ['https://cdn.example.com', 'https://fonts.example.net'],
      style: ['https://fonts.example.net'],
      font: ['https://fonts.example.net'],
    });
    assert.deepEqual(brandingCspSources({ logoUrl: undefined, stylesheetUrl: '/_service/brand/style.css?v=x' }), { img: [], style: [], font: [] });
    // The console serves its own copies of files; a path of the public listener is reached by the public URL.
    const external = loadConfig({ SECRET_KEY: SECRET, PUBLIC_URL: 'https://auth.example.com', BRANDING_LOGO_URL: 'https://cdn.example.com/logo.png', BRANDING_STYLESHEET_URL: '/static/brand.css' });
    assert.deepEqual(consoleBrandSources(external), { img: ['https://cdn.example.com', 'https://auth.example.com'], style: ['https://auth.example.com'], font: ['https://auth.example.com'] });
    const files = loadConfig({ SECRET_KEY: SECRET, BRANDING_LOGO_FILE: file('logo.png'), BRANDING_STYLESHEET_FILE: file('style.css') });
    assert.deepEqual(consoleBrandSources(files), { img: [], style: [], font: [] });
  });
});
