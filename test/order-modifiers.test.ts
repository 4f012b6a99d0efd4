import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { tacoMenu } from './helpers/modifier-factories';
import { callerFor, storedOrder } from './helpers/orders-factories';

describeEachDatabase('order lines with modifiers, quantity, seat and course', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0]) {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, 'manager');
    const call = callerFor(testApp.app, cookies);
    const menu = await tacoMenu(call, testApp.db);
    const { id: orderId } = (await call('POST', '/orders', {})).json();
    return { ...testApp, call, menu, orderId };
  }

  it('adds n plates priced with their options, each with the snapshot, seat and course', async (t) => {
    const { db, call, menu, orderId } = await setup(t);
    const added = await call('POST', `/orders/${orderId}/dishes`, [
      {
        dish_id: menu.tacos.id,
        modifiers: [menu.pineapple.id, menu.flour.id, menu.noOnion.id],
        quantity: 3,
        seat: 2,
        course: 2,
      },
    ]);
    assert.equal(added.statusCode, 201, added.body);
    const { ids } = added.json();
    assert.equal(ids.length, 3);
    assert.equal(Number((await storedOrder(db, orderId)).total_cents), 3 * 4500);
    const plates = (await call('GET', `/orders/${orderId}/dishes`)).json();
    assert.deepEqual(plates.map((plate: { id: string }) => plate.id).sort(), [...ids].sort());
    for (const plate of plates) {
      assert.equal(plate.price_at_order, 45);
      assert.equal(plate.seat, 2);
      assert.equal(plate.course, 2);
      // The dish's group order, then each group's option order.
      assert.deepEqual(plate.modifiers, [
        { option_id: menu.flour.id, group_name: 'Tortilla', name: 'Flour', price_delta: 5 },
        { option_id: menu.pineapple.id, group_name: 'Extras', name: 'Extra pineapple', price_delta: 10 },
        { option_id: menu.noOnion.id, group_name: 'Extras', name: 'No onion', price_delta: 0 },
      ]);
    }
    // A later menu edit changes no history.
    await call('PUT', `/modifier-groups/${menu.tortilla.id}`, { ...menu.tortilla, options: [menu.corn] });
    const after = (await call('GET', `/orders/${orderId}/dishes`)).json();
    assert.equal(after[0].modifiers[0].name, 'Flour');
  });

  it('opens an order with plates with options in one go, and accepts the matching price', async (t) => {
    const { db, call, menu } = await setup(t);
    const created = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: [
        {
          dish_id: menu.tacos.id,
          modifiers: [menu.corn.id, menu.cheese.id],
          price_at_order: 37.5,
          quantity: 2,
        },
      ],
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(Number((await storedOrder(db, created.json().id)).total_cents), 7500);
  });

  it('refuses every broken line with its message and changes nothing', async (t) => {
    const { db, call, menu, orderId } = await setup(t);
    const { id: otherGroup } = (
      await call('POST', '/modifier-groups', {
        name: 'Salsa',
        min_select: 0,
        max_select: 1,
        options: [{ name: 'Verde', price_delta: 0 }],
      })
    ).json();
    const [verde] = (await call('GET', `/modifier-groups/${otherGroup}`)).json().options;
    await call('PUT', `/modifier-groups/${menu.extras.id}`, {
      ...menu.extras,
      options: [menu.pineapple, { ...menu.cheese, available: false }, { ...menu.noOnion, price_delta: -40 }],
    });
    const tacos = menu.tacos.id;
    const refusals: [unknown, string][] = [
      [{ dish_id: tacos }, 'Choose at least 1 in Tortilla'],
      [{ dish_id: tacos, modifiers: [menu.corn.id, menu.flour.id] }, 'Choose at most 1 in Tortilla'],
      [
        { dish_id: tacos, modifiers: [menu.corn.id, verde.id] },
        `Option ${verde.id} does not belong to this dish`,
      ],
      [
        { dish_id: tacos, modifiers: [menu.corn.id, menu.cheese.id] },
        'Option is not available: Extra cheese',
      ],
      [
        { dish_id: tacos, modifiers: [menu.corn.id], price_at_order: 31 },
        'price_at_order does not match the dish and its modifiers',
      ],
      [{ dish_id: tacos, modifiers: [menu.corn.id, menu.noOnion.id] }, 'A plate cannot cost less than 0'],
    ];
    const digest = await databaseDigest(db);
    for (const [entry, message] of refusals) {
      // A good line beside the bad one: all or nothing.
      const good = { dish_id: tacos, modifiers: [menu.corn.id] };
      const response = await call('POST', `/orders/${orderId}/dishes`, [good, entry]);
      assert.equal(response.statusCode, 400, JSON.stringify(entry));
      assert.deepEqual(response.json(), { message });
      const opened = await call('POST', '/orders/with-dishes', { order: {}, dishes: [good, entry] });
      assert.deepEqual(opened.json(), { message });
    }
    for (const entry of [
      { dish_id: tacos, modifiers: [menu.corn.id], quantity: 0 },
      { dish_id: tacos, modifiers: [menu.corn.id], quantity: 100 },
      { dish_id: tacos, modifiers: [menu.corn.id], seat: 0 },
      { dish_id: tacos, modifiers: [menu.corn.id], course: 10 },
      { dish_id: tacos, modifiers: [menu.corn.id, menu.corn.id] },
    ]) {
      const response = await call('POST', `/orders/${orderId}/dishes`, [entry]);
      assert.equal(response.statusCode, 400, JSON.stringify(entry));
      assert.equal(response.json().message, 'Validation failed');
    }
    const tooMany = await call('POST', `/orders/${orderId}/dishes`, [
      { dish_id: tacos, modifiers: [menu.corn.id], quantity: 99 },
      { dish_id: tacos, modifiers: [menu.corn.id], quantity: 99 },
      { dish_id: tacos, modifiers: [menu.corn.id], quantity: 3 },
    ]);
    assert.deepEqual(tooMany.json(), { message: 'At most 200 plates per request' });
    assert.equal(await databaseDigest(db), digest);
    await call('PUT', `/dishes/${tacos}/availability`, { available: false });
    const soldOut = await call('POST', `/orders/${orderId}/dishes`, [
      { dish_id: tacos, modifiers: [menu.corn.id] },
    ]);
    assert.deepEqual(soldOut.json(), { message: 'Dish is not available: Tacos al pastor' });
    assert.equal((await call('GET', `/orders/${orderId}/dishes`)).statusCode, 204);
  });

  it("changes a pending plate's options, seat and course, repricing it; freezes the options once sent", async (t) => {
    const { db, call, menu, orderId } = await setup(t);
    const [plateId] = (
      await call('POST', `/orders/${orderId}/dishes`, [{ dish_id: menu.tacos.id, modifiers: [menu.corn.id] }])
    ).json().ids;
    const url = `/orders/${orderId}/dishes/${plateId}`;
    const changed = await call('PUT', url, {
      modifiers: [menu.flour.id, menu.cheese.id],
      seat: 3,
      course: 2,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(Number((await storedOrder(db, orderId)).total_cents), 4250);
    const [view] = (await call('GET', `/orders/${orderId}/dishes`)).json();
    assert.equal(view.price_at_order, 42.5);
    assert.deepEqual([view.seat, view.course], [3, 2]);
    assert.deepEqual(
      view.modifiers.map((modifier: { name: string }) => modifier.name),
      ['Flour', 'Extra cheese'],
    );
    // The view sent back is no change.
    assert.equal((await call('PUT', url, view)).statusCode, 200);
    const mismatch = await call('PUT', url, { modifiers: [menu.corn.id], price_at_order: 42.5 });
    assert.deepEqual(mismatch.json(), {
      message: 'price_at_order does not match the dish and its modifiers',
    });
    const override = await call('PUT', url, { price_at_order: 1 });
    assert.deepEqual(override.json(), {
      message: 'price_at_order does not match the dish and its modifiers',
    });
    assert.equal((await call('POST', `/orders/${orderId}/send`, { course: 2 })).json().sent, 1);
    const digest = await databaseDigest(db);
    const frozen = await call('PUT', url, { modifiers: [menu.corn.id] });
    assert.equal(frozen.statusCode, 400);
    assert.deepEqual(frozen.json(), {
      message: 'Modifiers cannot change once the plate is sent to the kitchen',
    });
    assert.equal(await databaseDigest(db), digest);
    assert.equal((await call('PUT', url, { ...view, status: 'sent', seat: 4 })).statusCode, 200);
    assert.equal((await call('GET', `/orders/${orderId}/dishes`)).json()[0].seat, 4);
  });

  it('fires one course at a time; without a body every pending plate', async (t) => {
    const { call, menu, orderId } = await setup(t);
    const line = { dish_id: menu.tacos.id, modifiers: [menu.corn.id] };
    await call('POST', `/orders/${orderId}/dishes`, [
      { ...line, course: 1, quantity: 2 },
      { ...line, course: 2 },
      { ...line, course: 3 },
    ]);
    const statuses = async () =>
      (await call('GET', `/orders/${orderId}/dishes`))
        .json()
        .map((plate: { course: number; status: string }) => `${plate.course}:${plate.status}`)
        .sort();
    assert.deepEqual((await call('POST', `/orders/${orderId}/send`, { course: 2 })).json(), {
      message: 'Dishes sent to kitchen',
      sent: 1,
    });
    assert.deepEqual(await statuses(), ['1:pending', '1:pending', '2:sent', '3:pending']);
    assert.equal((await call('POST', `/orders/${orderId}/send`, { course: 2 })).json().sent, 0);
    assert.equal((await call('POST', `/orders/${orderId}/send`, { course: 0 })).statusCode, 400);
    const all = await call('POST', `/orders/${orderId}/send`);
    assert.equal(all.json().sent, 3);
    assert.deepEqual(await statuses(), ['1:sent', '1:sent', '2:sent', '3:sent']);
  });

  it('shows options, seat and course on the kitchen queue, grouped by order and course, on chits and receipts', async (t) => {
    const { db, call, menu, orderId, clock } = await setup(t);
    const printer = await call('POST', '/printers', {
      name: 'Pass',
      host: '127.0.0.1',
      port: 9,
      role: 'kitchen',
      width: 32,
    });
    assert.equal(printer.statusCode, 201, printer.body);
    const { ids } = (
      await call('POST', `/orders/${orderId}/dishes`, [
        { dish_id: menu.tacos.id, modifiers: [menu.flour.id, menu.pineapple.id], seat: 2, quantity: 2 },
        { dish_id: menu.tacos.id, modifiers: [menu.corn.id], course: 2 },
      ])
    ).json();
    const other = (
      await call('POST', '/orders/with-dishes', {
        order: {},
        dishes: [{ dish_id: menu.tacos.id, modifiers: [menu.corn.id] }],
      })
    ).json().id;
    await call('POST', `/orders/${orderId}/send`, { course: 1 });
    clock.advance(1000);
    await call('POST', `/orders/${other}/send`);
    clock.advance(1000);
    await call('POST', `/orders/${orderId}/send`, { course: 2 });
    const queue = (await call('GET', '/kitchen/queue')).json();
    assert.deepEqual(
      queue.map((item: { order_id: string; course: number }) => [item.order_id, item.course]),
      [
        [orderId, 1],
        [orderId, 1],
        [other, 1],
        [orderId, 2],
      ],
    );
    assert.deepEqual(queue[0].modifiers, [
      { option_id: menu.flour.id, group_name: 'Tortilla', name: 'Flour', price_delta: 5 },
      { option_id: menu.pineapple.id, group_name: 'Extras', name: 'Extra pineapple', price_delta: 10 },
    ]);
    assert.equal(queue[0].seat, 2);

    const jobs = await db
      .selectFrom('print_jobs')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .execute();
    const firstChit = Buffer.from(jobs[0]?.bytes as Uint8Array).toString('latin1');
    assert.ok(
      firstChit.includes('2 x Tacos al pastor (Comensal 2)\n  + Flour\n  + Extra pineapple\n'),
      firstChit,
    );
    const secondChit = Buffer.from(jobs[1]?.bytes as Uint8Array).toString('latin1');
    assert.ok(secondChit.includes('-- Tiempo 2 --\n1 x Tacos al pastor\n  + Corn\n'), secondChit);

    const bill = await call('POST', `/orders/${orderId}/tickets`, { order_dish_ids: ids });
    assert.equal(bill.statusCode, 201, bill.body);
    const receipt = (await call('GET', `/tickets/${bill.json().id}/receipt?width=42`)).body;
    // The dish's part, then each option with a price on its own line (free ones unpriced): 60 + 10 + 20 + 30.
    // In the order the waiter entered them, although both lines were added in one request.
    assert.match(
      receipt,
      /\n2 x Tacos al pastor \(Comensal 2\) +\$60\.00\n {2}\+ Flour +\$10\.00\n {2}\+ Extra pineapple +\$20\.00\n1 x Tacos al pastor +\$30\.00\n {2}\+ Corn\n/,
    );
    assert.match(receipt, /Subtotal +\$120\.00/);
  });

  it("counts the plate's full price, options included, in the sales by dish", async (t) => {
    const { call, menu, orderId } = await setup(t);
    const { ids } = (
      await call('POST', `/orders/${orderId}/dishes`, [
        { dish_id: menu.tacos.id, modifiers: [menu.flour.id, menu.pineapple.id] },
      ])
    ).json();
    const bill = (await call('POST', `/orders/${orderId}/tickets`, { order_dish_ids: ids })).json();
    const paid = await call('POST', `/tickets/${bill.id}/payments`, { method: 'cash', amount: 45 });
    assert.equal(paid.statusCode, 201, paid.body);
    const report = await call('GET', '/reports/sales?from=2026-11-01&to=2026-11-30&group_by=dish');
    assert.equal(report.statusCode, 200, report.body);
    assert.ok(report.body.includes('"gross":45'), report.body);
  });
});
