import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { CategoriesCard } from './CategoriesCard';
import { IngredientsCard } from './IngredientsCard';
import { ProductsCard } from './ProductsCard';
import { useLoaded } from './shared';
import { stockItemStrings } from './stock-items-model';

async function loadStockItems() {
  const [ingredientCategories, productCategories, ingredients, products] = await Promise.all([
    ok(api.GET('/categories', { params: { query: { type: 'ingredient' } } })),
    ok(api.GET('/categories', { params: { query: { type: 'product' } } })),
    ok(api.GET('/ingredients')),
    ok(api.GET('/products')),
  ]);
  return {
    ingredientCategories: ingredientCategories ?? [],
    productCategories: productCategories ?? [],
    ingredients: ingredients ?? [],
    products: products ?? [],
  };
}

/** What the storeroom holds: ingredients (used by recipes) and products (sold or used as they come). */
export function StockItemsSection() {
  const t = useStrings(stockItemStrings);
  const items = useLoaded(loadStockItems);
  const data = items.data;
  return (
    <div class="manager-sections">
      <Alert message={items.error} />
      <CategoriesCard
        type="ingredient"
        title={t.ingredientCategories}
        categories={data?.ingredientCategories ?? []}
        reload={items.reload}
      />
      <IngredientsCard
        ingredients={data?.ingredients ?? []}
        categories={data?.ingredientCategories ?? []}
        reload={items.reload}
      />
      <CategoriesCard
        type="product"
        title={t.productCategories}
        categories={data?.productCategories ?? []}
        reload={items.reload}
      />
      <ProductsCard
        products={data?.products ?? []}
        categories={data?.productCategories ?? []}
        reload={items.reload}
      />
    </div>
  );
}
