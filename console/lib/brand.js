// The site's name and logo (BRANDING_*), for the title, the header and the sign-in.
import { call } from './api.js';
import { html } from './ui.js';

const brand = (await call('GET', '/console/brand/brand.json'))?.body?.data ?? { site_name: '', logo_url: null };
if (brand.site_name) document.title = `${brand.site_name} · ${document.title}`;

export function Brand() {
  return html`<span class="brand">${brand.logo_url && html`<img class="logo" src=${brand.logo_url} alt="" />`}<span class="site-name">${brand.site_name}</span></span>`;
}
