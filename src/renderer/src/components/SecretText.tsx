// Text in which the engine masked a credential (a quarantined memory, until a person
// reveals or redacts it): each `••••••••` is drawn as a marked, named span, so it reads as
// "a secret is hidden here" to the eye and to a screen reader alike.
import { Fragment } from 'react';
import { SECRET_MASK } from '../../../shared/constants';

export function SecretText({ text }: { text: string }) {
  if (!text.includes(SECRET_MASK)) return <>{text}</>;
  const parts = text.split(SECRET_MASK);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? (
            <span
              className="secret-mask"
              role="img"
              aria-label="hidden secret"
              title="A secret, hidden"
            >
              {SECRET_MASK}
            </span>
          ) : null}
        </Fragment>
      ))}
    </>
  );
}
