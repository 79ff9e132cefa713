import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planAddresses } from '../../../src/flows/admin/import-allauth/address-plan.js';
import type { SourceUser } from '../../../src/store/allauth/users.js';
import type { SourceEmailAddress } from '../../../src/store/allauth/email-addresses.js';

// Which of a source user's addresses come over: the cases the fixture does
// not hold (allauth allows them, this server's one-holder rule does not).

const user = (email = ''): SourceUser => ({
  id: 7,
  password: '!',
  username: 'u',
  email,
  isActive: true,
  dateJoined: 0,
  lastLogin: null,
  firstName: '',
  lastName: '',
  isStaffOrSuperuser: false,
});
let nextId = 100;
const row = (email: string, verified: boolean, primary: boolean): SourceEmailAddress => ({ id: nextId++, userId: 7, email, verified, primary });
const nobodyElse = () => false;
const shape = (plan: ReturnType<typeof planAddresses>) => ({ addresses: plan.addresses.map((a) => [a.email, a.verified, a.primary, a.record.kind]), skipped: plan.skipped });

describe('planAddresses', () => {
  it('takes the rows as they are when they are consistent', () => {
    const plan = planAddresses(user('a@example.com'), [row('a@example.com', true, true), row('b@example.com', false, false)], nobodyElse);
    assert.deepEqual(shape(plan), {
      addresses: [['a@example.com', true, true, 'email_address'], ['b@example.com', false, false, 'email_address']],
      skipped: [],
    });
  });

  it('adds auth_user.email when no row has it: primary when alone, else beside the rows', () => {
    assert.deepEqual(shape(planAddresses(user('Root@example.com'), [], nobodyElse)).addresses, [['Root@example.com', false, true, 'user_email']]);
    assert.deepEqual(shape(planAddresses(user('old@example.com'), [row('new@example.com', true, true)], nobodyElse)).addresses, [
      ['new@example.com', true, true, 'email_address'],
      ['old@example.com', false, false, 'user_email'],
    ]);
    assert.deepEqual(shape(planAddresses(user('A@Example.com'), [row('a@example.com', true, true)], nobodyElse)).addresses, [['a@example.com', true, true, 'email_address']]);
  });

  it('merges rows that differ only in case, keeping their flags', () => {
    const plan = planAddresses(user(), [row('x@example.com', false, true), row('X@example.com', true, false)], nobodyElse);
    assert.deepEqual(shape(plan), { addresses: [['x@example.com', true, true, 'email_address']], skipped: ['duplicate'] });
  });

  it('leaves an unverified address to the source user who verified it, and picks another primary', () => {
    const verifiedByOther = (email: string, userId: number) => email === 'shared@example.com' && userId === 7;
    const plan = planAddresses(user('shared@example.com'), [row('shared@example.com', false, true), row('mine@example.com', false, false), row('ok@example.com', true, false)], verifiedByOther);
    assert.deepEqual(shape(plan), {
      addresses: [['mine@example.com', false, false, 'email_address'], ['ok@example.com', true, true, 'email_address']],
      skipped: ['verified_by_another_user'],
    });
  });

  it('makes one address primary when no row is', () => {
    assert.deepEqual(shape(planAddresses(user(), [row('a@example.com', false, false), row('b@example.com', false, false)], nobodyElse)).addresses, [
      ['a@example.com', false, true, 'email_address'],
      ['b@example.com', false, false, 'email_address'],
    ]);
    assert.deepEqual(shape(planAddresses(user('b@example.com'), [row('a@example.com', true, false), row('b@example.com', false, false)], nobodyElse)).addresses, [
      ['a@example.com', true, false, 'email_address'],
      ['b@example.com', false, true, 'email_address'],
    ]);
  });
});
