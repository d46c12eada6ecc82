import { describe, expect, it } from 'vitest';
import { withoutPassword } from './config';

describe('a hub URL as Loci keeps it', () => {
  it('takes the password out, from the user part or from ?password=', () => {
    expect(withoutPassword('postgres://alice:s3cr%2Ft@db:5432/loci?sslmode=require')).toEqual({
      shown: 'postgres://alice@db:5432/loci?sslmode=require',
      password: 's3cr/t',
    });
    expect(
      withoutPassword('postgresql://alice@db/loci?password=hunter2&sslmode=verify-full'),
    ).toEqual({
      shown: 'postgresql://alice@db/loci?sslmode=verify-full',
      password: 'hunter2',
    });
    expect(withoutPassword('postgres://alice@db/loci').password).toBeNull();
  });

  it('never echoes what it cannot parse, and refuses what is not PostgreSQL', () => {
    let message = '';
    try {
      withoutPassword('postgres://alice:pa/ss@word@db/loci');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/percent-encoded/);
    expect(message).not.toContain('pa/ss');
    expect(() => withoutPassword('mysql://alice@db/loci')).toThrow(/PostgreSQL URL/);
  });
});
