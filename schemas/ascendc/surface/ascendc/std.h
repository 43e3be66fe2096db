// curate AscendC surface: AscendC::Std, the device-side subset of the C++ standard library.
#ifndef CURATE_ASCENDC_STD_H
#define CURATE_ASCENDC_STD_H

#define __host__

namespace AscendC {
namespace Std {

template <typename Tp, Tp v>
struct integral_constant {
    static constexpr Tp value = v;
    using value_type = Tp;
    using type = integral_constant;
    constexpr operator value_type() const { return value; }
    constexpr value_type operator()() const { return value; }
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <bool B>
using bool_constant = integral_constant<bool, B>;
template <size_t v>
using Int = integral_constant<size_t, v>;

template <typename Tp, typename Up>
struct is_same : false_type {};
template <typename Tp>
struct is_same<Tp, Tp> : true_type {};
template <typename Tp, typename Up>
constexpr bool is_same_v = is_same<Tp, Up>::value;
template <typename Tp, typename Up>
using IsSame = is_same<Tp, Up>;
template <bool B, typename Tp = void>
struct enable_if {};
template <typename Tp>
struct enable_if<true, Tp> {
    using type = Tp;
};
template <bool B, typename Tp = void>
using enable_if_t = typename enable_if<B, Tp>::type;
template <bool Bp, typename If, typename Then>
struct conditional {
    using type = If;
};
template <typename If, typename Then>
struct conditional<false, If, Then> {
    using type = Then;
};
template <bool Bp, typename If, typename Then>
using conditional_t = typename conditional<Bp, If, Then>::type;

template <typename Tp>
struct remove_reference {
    using type = Tp;
};
template <typename Tp>
struct remove_reference<Tp&> {
    using type = Tp;
};
template <typename Tp>
struct remove_reference<Tp&&> {
    using type = Tp;
};
template <typename Tp>
using remove_reference_t = typename remove_reference<Tp>::type;
template <typename Tp>
struct remove_const {
    using type = Tp;
};
template <typename Tp>
struct remove_const<const Tp> {
    using type = Tp;
};
template <typename Tp>
struct remove_volatile {
    using type = Tp;
};
template <typename Tp>
struct remove_volatile<volatile Tp> {
    using type = Tp;
};
template <typename Tp>
struct remove_cv {
    using type = typename remove_volatile<typename remove_const<Tp>::type>::type;
};
template <typename Tp>
using remove_cv_t = typename remove_cv<Tp>::type;
template <typename Tp>
struct remove_cvref {
    using type = typename remove_cv<typename remove_reference<Tp>::type>::type;
};
template <typename Tp>
using remove_cvref_t = typename remove_cvref<Tp>::type;
template <typename Tp>
struct remove_pointer {
    using type = Tp;
};
template <typename Tp>
struct remove_pointer<Tp*> {
    using type = Tp;
};
template <typename Tp>
struct decay {
    using type = remove_cvref_t<Tp>;
};
template <typename Tp>
using decay_t = typename decay<Tp>::type;
template <typename Tp>
struct add_pointer {
    using type = remove_reference_t<Tp>*;
};
template <typename Tp>
struct add_const {
    using type = const Tp;
};
template <typename Tp>
struct add_lvalue_reference {
    using type = Tp&;
};
template <typename Tp>
struct add_rvalue_reference {
    using type = Tp&&;
};
template <typename Tp>
struct is_void : is_same<typename remove_cv<Tp>::type, void> {};
template <typename Tp>
struct is_const : false_type {};
template <typename Tp>
struct is_const<const Tp> : true_type {};
template <typename Tp>
struct is_reference : false_type {};
template <typename Tp>
struct is_reference<Tp&> : true_type {};
template <typename Tp>
struct is_reference<Tp&&> : true_type {};
template <typename Tp>
struct is_pointer : false_type {};
template <typename Tp>
struct is_pointer<Tp*> : true_type {};
template <typename Tp>
struct is_array : false_type {};
template <typename Tp, size_t N>
struct is_array<Tp[N]> : true_type {};
template <typename Tp>
struct is_array<Tp[]> : true_type {};
template <typename T>
struct is_integral : bool_constant<__is_integral(T)> {};
template <typename T>
struct is_floating_point : bool_constant<__is_floating_point(T) || __is_same(remove_cv_t<T>, bfloat16_t)> {};
template <typename T>
struct is_class : bool_constant<__is_class(T)> {};
template <typename T>
struct is_union : bool_constant<__is_union(T)> {};
template <typename T>
struct is_function : bool_constant<__is_function(T)> {};
template <typename Base, typename Derived>
struct is_base_of : bool_constant<__is_base_of(Base, Derived)> {};
template <typename From, typename To>
struct is_convertible : bool_constant<__is_convertible_to(From, To)> {};
template <typename T, typename... Args>
struct is_one_of : false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...> : bool_constant<is_same<T, Head>::value || is_one_of<T, Tail...>::value> {};
template <typename T, T... Values>
struct is_one_of_value : false_type {};
template <typename T, typename... Args>
constexpr bool is_one_of_v = is_one_of<T, Args...>::value;
template <typename Base, typename Derived>
constexpr bool is_base_of_v = is_base_of<Base, Derived>::value;
template <typename From, typename To>
constexpr bool is_convertible_v = is_convertible<From, To>::value;
template <typename T>
constexpr bool is_integral_v = is_integral<T>::value;
template <typename T>
constexpr bool is_floating_point_v = is_floating_point<T>::value;

template <class T, T... Ns>
struct IntegerSequence {
    static constexpr size_t size() { return sizeof...(Ns); }
};
template <size_t... Ns>
using index_sequence = IntegerSequence<size_t, Ns...>;
template <size_t N>
using make_index_sequence = __make_integer_seq<IntegerSequence, size_t, N>;

template <class T>
T&& declval();
template <class T>
__aicore__ inline constexpr T&& forward(remove_reference_t<T>& t);
template <class T>
__aicore__ inline constexpr remove_reference_t<T>&& move(T&& t);

template <typename... Tps>
class tuple;
template <>
class tuple<> {};
template <typename Head, typename... Tail>
class tuple<Head, Tail...> {
public:
    __aicore__ inline tuple();
    __aicore__ inline tuple(const Head& head, const Tail&... tail);
};
template <typename... Tps>
__aicore__ inline tuple<decay_t<Tps>...> make_tuple(Tps&&... args);
template <typename... Tps>
__aicore__ inline tuple<Tps&...> tie(Tps&... args);
template <size_t N, typename... Tps>
__aicore__ inline auto& get(tuple<Tps...>& t);
template <size_t N, typename... Tps>
__aicore__ inline const auto& get(const tuple<Tps...>& t);
template <typename T>
struct tuple_size;
template <typename... Tps>
struct tuple_size<tuple<Tps...>> : integral_constant<size_t, sizeof...(Tps)> {};
template <size_t N, typename T>
struct tuple_element;
template <size_t N, typename Head, typename... Tail>
struct tuple_element<N, tuple<Head, Tail...>> : tuple_element<N - 1, tuple<Tail...>> {};
template <typename Head, typename... Tail>
struct tuple_element<0, tuple<Head, Tail...>> {
    using type = Head;
};
template <typename T>
struct is_tuple : false_type {};
template <typename... Tps>
struct is_tuple<tuple<Tps...>> : true_type {};
template <typename T>
constexpr bool is_tuple_v = is_tuple<T>::value;
// A placeholder accepting any value (the `_` of structured ignores).
struct ignore_t {
    __aicore__ inline ignore_t() = default;
    template <typename Tp, typename... Ts>
    __aicore__ inline constexpr ignore_t(const Tp&, const Ts&...) noexcept
    {}
};
// Rounds num1 up to a multiple of num2.
template <typename T, typename U>
__host__ __aicore__ inline constexpr auto ceil_align(const T& num1, const U& num2)
{
    return (num1 + num2 - 1) / num2 * num2;
}

template <typename T, typename U>
__host__ __aicore__ inline constexpr auto min(const T& src0, const U& src1)
{
    return src0 < src1 ? src0 : src1;
}
template <typename T, typename U>
__host__ __aicore__ inline constexpr auto max(const T& src0, const U& src1)
{
    return src0 < src1 ? src1 : src0;
}
template <typename T>
__aicore__ inline T sqrt(const T src);
template <typename T>
__aicore__ inline T abs(const T src);

}  // namespace Std
}  // namespace AscendC

#endif  // CURATE_ASCENDC_STD_H
