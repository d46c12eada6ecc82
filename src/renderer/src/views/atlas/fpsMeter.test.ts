import { describe, expect, it } from 'vitest';
import { FpsMeter } from './fpsMeter';

describe('FpsMeter', () => {
  it('counts the frames drawn in the last second', () => {
    const meter = new FpsMeter();
    for (let i = 0; i < 120; i++) meter.frame(i * (1000 / 60), 4);
    expect(meter.fps(119 * (1000 / 60))).toBe(60);
    expect(meter.meanDrawMs(119 * (1000 / 60))).toBe(4);
  });

  it('reads 25 at 25 frames a second and follows a change of pace', () => {
    const meter = new FpsMeter();
    let t = 0;
    for (let i = 0; i < 60; i++) meter.frame((t += 40), 10);
    expect(meter.fps(t)).toBe(25);
    for (let i = 0; i < 60; i++) meter.frame((t += 20), 2);
    expect(meter.fps(t)).toBe(50);
    expect(meter.meanDrawMs(t)).toBe(2);
  });

  it('decays to 0 when nothing is drawn', () => {
    const meter = new FpsMeter();
    for (let i = 0; i < 30; i++) meter.frame(i * 10);
    expect(meter.fps(290)).toBe(30);
    expect(meter.fps(1000)).toBe(29);
    expect(meter.fps(1500)).toBe(0);
    expect(meter.meanDrawMs(1500)).toBe(0);
  });

  it('uses its window: 10 frames in half a second is 20 per second', () => {
    const meter = new FpsMeter(500);
    for (let i = 0; i < 10; i++) meter.frame(i * 50);
    expect(meter.fps(450)).toBe(20);
    meter.reset();
    expect(meter.fps(450)).toBe(0);
  });
});
