import { DOMParser } from '@xmldom/xmldom';

// Reading SAML documents with a DOM, by namespace and local name (never by
// prefix, which the sender chooses). Only for documents node-saml already
// verified, or for checks that refuse (a comment anywhere, a SHA-1 algorithm).

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/** A parsed document, or null when it is not well-formed XML. */
export function parseXml(xml: string): Document | null {
  let failed = false;
  const onError = () => {
    failed = true;
  };
  const doc = new DOMParser({ onError, errorHandler: { warning: () => {}, error: onError, fatalError: onError } } as never).parseFromString(xml, 'text/xml');
  return failed || !doc?.documentElement ? null : doc;
}

export function children(parent: Element | Document, ns: string, localName: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === localName) found.push(node as Element);
  }
  return found;
}

export function child(parent: Element | Document, ns: string, localName: string): Element | null {
  return children(parent, ns, localName)[0] ?? null;
}

export function descendants(root: Element | Document, ns: string, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(ns, localName));
}

/** The text of an element, every text node of it joined (a comment cannot cut a value short). */
export function textOf(element: Element | null): string | null {
  if (!element) return null;
  return element.textContent?.trim() ?? null;
}

export function hasComment(node: Node): boolean {
  for (let current = node.firstChild; current; current = current.nextSibling) {
    if (current.nodeType === 8 || hasComment(current)) return true;
  }
  return false;
}
